import { describe, expect, it } from "vitest";
import { pooledRandomBytes } from "../../shared/erasure/random-pool.ts";

describe("pooled random bytes", () => {
  it("hands out bytes never handed out before: 20,000 IVs across several blocks are all different", () => {
    const seen = new Set<string>();
    for (let index = 0; index < 20_000; index += 1) seen.add(pooledRandomBytes(12).toString("hex"));
    expect(seen.size).toBe(20_000);
  });

  it("gives each caller bytes of its own, which later draws never change", () => {
    const first = pooledRandomBytes(32);
    const copy = Buffer.from(first);
    for (let index = 0; index < 10_000; index += 1) pooledRandomBytes(32);
    expect(first.equals(copy)).toBe(true);
    expect(first.length).toBe(32);
    expect(pooledRandomBytes(100_000)).toHaveLength(100_000);
  });
});
