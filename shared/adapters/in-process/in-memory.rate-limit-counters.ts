// Rate-limit counters in this process's memory: right for the all-in-one process, which is the only node.
// Expired counters are swept at most once a second, on an increment, so memory follows the callers active
// within the longest window.
import type { RateLimitCounters } from "../../rate-limit/rate-limit-counters.port.ts";

const SWEEP_EVERY_MS = 1_000;

export class InMemoryRateLimitCounters implements RateLimitCounters {
  private readonly counters = new Map<string, { count: number; expiresAt: number }>();
  private nextSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async increment(key: string, ttlSeconds: number): Promise<number> {
    const now = this.now();
    if (now >= this.nextSweep) this.sweep(now);
    const current = this.counters.get(key);
    const count = current && current.expiresAt > now ? current.count + 1 : 1;
    this.counters.set(key, { count, expiresAt: now + ttlSeconds * 1_000 });
    return count;
  }

  /**
   * Raises the key's count to `count` unless it is higher already: what another store counted for this key (the
   * shared counters, which this process falls back from), so counting here goes on from there.
   */
  raiseTo(key: string, count: number, ttlSeconds: number): void {
    const now = this.now();
    const current = this.counters.get(key);
    if (current && current.expiresAt > now && current.count >= count) return;
    this.counters.set(key, { count, expiresAt: now + ttlSeconds * 1_000 });
  }

  /** How many counters are held; for tests of the sweep. */
  get size(): number {
    return this.counters.size;
  }

  private sweep(now: number): void {
    for (const [key, counter] of this.counters) if (counter.expiresAt <= now) this.counters.delete(key);
    this.nextSweep = now + SWEEP_EVERY_MS;
  }

  async close(): Promise<void> {
    this.counters.clear();
  }
}
