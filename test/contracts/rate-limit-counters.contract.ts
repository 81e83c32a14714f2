// The RateLimitCounters contract: every adapter (in-process, NATS KV) must pass these. `peer` is a second
// handle on the same store (another connection, as another process would hold).
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RateLimitCounters } from "../../shared/rate-limit/rate-limit-counters.port.ts";

export interface CountersUnderTest {
  readonly counters: RateLimitCounters;
  readonly peer: RateLimitCounters;
  cleanup(): Promise<void>;
}

const range = (n: number) => Array.from({ length: n }, (_, index) => index + 1);

export function rateLimitCountersContract(name: string, factory: () => Promise<CountersUnderTest>): void {
  describe(`RateLimitCounters contract: ${name}`, () => {
    let subject: CountersUnderTest;
    // Keys are unique per test so the suite also runs against a shared server.
    let key: string;
    beforeEach(async () => {
      subject = await factory();
      key = `read.${randomUUID().replaceAll("-", "")}.1`;
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    it("counts a new key from 1, one more on each increment", async () => {
      const seen = [];
      for (let n = 0; n < 4; n += 1) seen.push(await subject.counters.increment(key, 60));
      expect(seen).toEqual([1, 2, 3, 4]);
    });

    it("keeps each key's count apart", async () => {
      await subject.counters.increment(key, 60);
      await subject.counters.increment(key, 60);
      expect(await subject.counters.increment(`${key}0`, 60)).toBe(1);
      expect(await subject.counters.increment(key, 60)).toBe(3);
    });

    it("counts every one of many concurrent increments once", async () => {
      const seen = await Promise.all(range(20).map(() => subject.counters.increment(key, 60)));
      expect([...seen].sort((a, b) => a - b)).toEqual(range(20));
    });

    it("shares counts between handles on one store, even when they increment at once", async () => {
      const seen = await Promise.all(
        range(20).map((n) => (n % 2 === 0 ? subject.counters : subject.peer).increment(key, 60)),
      );
      expect([...seen].sort((a, b) => a - b)).toEqual(range(20));
      expect(await subject.peer.increment(key, 60)).toBe(21);
    });

    it("counts a burst of 200 concurrent increments of one key, from two handles, each once", async () => {
      const seen = await Promise.all(
        range(200).map((n) => (n % 4 === 0 ? subject.peer : subject.counters).increment(key, 60)),
      );
      expect([...seen].sort((a, b) => a - b)).toEqual(range(200));
    });
  });
}
