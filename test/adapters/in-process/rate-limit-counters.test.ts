import { describe, expect, it } from "vitest";
import { InMemoryRateLimitCounters } from "../../../shared/adapters/in-process/in-memory.rate-limit-counters.ts";
import { rateLimitCountersContract } from "../../contracts/rate-limit-counters.contract.ts";

rateLimitCountersContract("in-process", async () => {
  const counters = new InMemoryRateLimitCounters();
  return { counters, peer: counters, cleanup: () => counters.close() };
});

describe("in-process rate-limit counters", () => {
  it("forget a counter once its time to live has passed, and hold no memory for it", async () => {
    let now = 1_000_000;
    const counters = new InMemoryRateLimitCounters(() => now);
    await counters.increment("write.a.1", 60);
    await counters.increment("write.a.1", 60);
    await counters.increment("write.b.1", 10);
    now += 30_000;
    expect(await counters.increment("write.a.1", 60)).toBe(3);
    expect(await counters.increment("write.b.1", 10)).toBe(1);
    now += 61_000;
    await counters.increment("write.c.2", 60);
    expect(counters.size).toBe(1);
  });
});
