// Where rate-limit counters live: in this process (all-in-one) or in a store every node shares (NATS KV).
export interface RateLimitCounters {
  /**
   * Adds one to the counter named `key` and returns its new value (1 when the key is new). Concurrent
   * increments of one key are all counted. A counter may be forgotten once `ttlSeconds` have passed since its
   * last increment (keys name their window, so a later window never finds an old count).
   */
  increment(key: string, ttlSeconds: number): Promise<number>;
  close(): Promise<void>;
}
