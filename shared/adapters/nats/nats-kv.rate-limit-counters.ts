// Rate-limit counters in a NATS JetStream KV bucket, shared by every node of a split deployment.
//
// Contention: nats-server 2.9 has no atomic counter, so an increment is a compare-and-set (`create` for a new
// key, `update` at the revision read). Done once per request, a burst of one caller's requests raced itself:
// most lost 32 rounds in a row and went through uncounted. Here a node combines the increments of one key that
// arrive while its previous write is in flight into one compare-and-set of +k, and hands out the k values
// that write reserved; so a node has at most one write per key under way, only nodes race each other, and every
// increment gets a value of its own, exactly as if they had been made one by one.
//
// Outage: the process starts and serves without NATS (nats-link.ts). While NATS is away, or for a few seconds
// after a KV request failed (a circuit breaker), increments are counted in this process's memory instead: a
// request costs no wait, and each node then enforces the quota on its own, going on from the shared count it last
// saw for the key (so a caller spread over n nodes may get up to n quotas until NATS is back, one node no more
// than one). The bucket's TTL (max_age) is at least the longest window, so a
// counter outlives its window and the server forgets it afterwards.
import { JetStreamApiCodes, JetStreamApiError, jetstream, jetstreamManager } from "@nats-io/jetstream";
import { Kvm, type KV } from "@nats-io/kv";
import { nanos, type NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "pino";
import type { DependencyMetrics } from "../../metrics/metrics.port.ts";
import type { RateLimitCounters } from "../../rate-limit/rate-limit-counters.port.ts";
import { InMemoryRateLimitCounters } from "../in-process/in-memory.rate-limit-counters.ts";
import { NatsLink } from "./nats-link.ts";
import { jetStreamStateLost } from "./jetstream-state.ts";

export interface NatsRateLimitCountersOptions {
  readonly bucket?: string;
  /** The longest window any policy uses: the bucket keeps a counter at least this long after its last write. */
  readonly maxWindowSeconds: number;
  readonly name?: string;
  readonly logger?: Pick<Logger, "info" | "warn">;
  readonly metrics?: DependencyMetrics;
  /** How long increments stay local after a KV request failed (default 5 s). */
  readonly breakerOpenMs?: number;
}

/** How long one KV request may wait for the server before the breaker opens. */
const REQUEST_TIMEOUT_MS = 1_000;

/** Compare-and-set attempts of one combined write: each lost attempt means another node wrote in between. */
const ATTEMPTS = 32;

const lostRace = (error: unknown): boolean =>
  error instanceof JetStreamApiError &&
  (error.code === JetStreamApiCodes.StreamWrongLastSequence ||
    error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown);

interface Waiter {
  readonly ttlSeconds: number;
  resolve(count: number): void;
}

class KvUnavailable extends Error {
  constructor() {
    super("the rate-limit KV bucket is unreachable");
  }
}

export class NatsRateLimitCounters implements RateLimitCounters {
  private kv: KV | null = null;
  private creating = false;
  private openUntil = 0;
  private readonly local = new InMemoryRateLimitCounters();
  /** Increments waiting for the key's write in flight, by key. */
  private readonly queued = new Map<string, Waiter[]>();
  private readonly writing = new Set<string>();

  private constructor(
    private readonly link: NatsLink,
    private readonly options: NatsRateLimitCountersOptions,
  ) {}

  /** Returns at once; the bucket is created or opened once NATS answers. */
  static open(url: string, options: NatsRateLimitCountersOptions): NatsRateLimitCounters {
    const { logger, metrics } = options;
    const link = NatsLink.open(url, {
      name: options.name ?? "workspace-rate-limits",
      ...(logger ? { logger } : {}),
      onChange: (up) => metrics?.dependency("bus", up),
    });
    metrics?.dependency("bus", false);
    const counters = new NatsRateLimitCounters(link, options);
    link.onUp((connection) => void counters.openBucket(connection));
    return counters;
  }

  /** Opens the counters and waits until the bucket is in place. */
  static async connect(url: string, options: NatsRateLimitCountersOptions): Promise<NatsRateLimitCounters> {
    const counters = NatsRateLimitCounters.open(url, options);
    while (!counters.up) await new Promise((resolve) => setTimeout(resolve, 20));
    return counters;
  }

  /** Whether the shared bucket is in use now (otherwise increments are counted in this process). */
  get up(): boolean {
    return this.link.up && this.kv !== null && Date.now() >= this.openUntil;
  }

  private async openBucket(connection: NatsConnection): Promise<void> {
    if (this.kv || this.creating) return;
    this.creating = true;
    const ttlMs = this.options.maxWindowSeconds * 1_000;
    try {
      const kv = await new Kvm(jetstream(connection, { timeout: REQUEST_TIMEOUT_MS })).create(
        this.options.bucket ?? "workspace-rate-limits",
        { history: 1, ttl: ttlMs },
      );
      // An existing bucket keeps the TTL it was made with: lengthen it when a window grew.
      const status = await kv.status();
      if (status.ttl < ttlMs) {
        const manager = await jetstreamManager(connection);
        await manager.streams.update(status.streamInfo.config.name, {
          ...status.streamInfo.config,
          max_age: nanos(ttlMs),
        });
      }
      this.kv = kv;
    } catch (error) {
      this.options.logger?.warn(
        { event: "rate_limit.bucket_unavailable", err: error },
        "the rate-limit bucket could not be opened; counting in this process",
      );
      setTimeout(() => {
        const current = this.link.connection();
        if (current && this.link.up) void this.openBucket(current);
      }, 1_000).unref();
    } finally {
      this.creating = false;
    }
  }

  /**
   * After a failed request, whether the bucket is still there: a request on a deleted bucket times out like one
   * on a slow server, while asking for the bucket's status says which it is. A deleted bucket is made again,
   * counting locally (and `up` false) meanwhile.
   */
  private async checkBucket(failure: unknown): Promise<void> {
    const kv = this.kv;
    if (!kv || !this.link.up) return;
    const lost =
      jetStreamStateLost(failure) ||
      (await kv.status().then(
        () => false,
        (error: unknown) => jetStreamStateLost(error),
      ));
    if (!lost || this.kv !== kv) return;
    this.kv = null;
    this.options.logger?.warn(
      { event: "rate_limit.bucket_lost" },
      "JetStream lost the rate-limit bucket; making it again",
    );
    const current = this.link.connection();
    if (current && this.link.up) void this.openBucket(current);
  }

  increment(key: string, ttlSeconds: number): Promise<number> {
    if (!this.up) return this.local.increment(key, ttlSeconds);
    return new Promise((resolve) => {
      const waiting = this.queued.get(key);
      if (waiting) waiting.push({ ttlSeconds, resolve });
      else this.queued.set(key, [{ ttlSeconds, resolve }]);
      if (!this.writing.has(key)) void this.write(key);
    });
  }

  /** Writes the key's queued increments, one combined write at a time, until none is left. */
  private async write(key: string): Promise<void> {
    this.writing.add(key);
    try {
      for (let waiters = this.queued.get(key); waiters && waiters.length > 0; waiters = this.queued.get(key)) {
        this.queued.delete(key);
        let before: number | null = null;
        try {
          before = await this.add(key, waiters.length);
        } catch (error) {
          if (!(error instanceof KvUnavailable)) {
            this.openUntil = Date.now() + (this.options.breakerOpenMs ?? 5_000);
            this.options.logger?.warn(
              { event: "rate_limit.kv_failed", err: error },
              "a rate-limit KV request failed; counting in this process for a while",
            );
            void this.checkBucket(error);
          }
        }
        if (before === null) {
          for (const waiter of waiters) waiter.resolve(await this.local.increment(key, waiter.ttlSeconds));
        } else {
          const counted = before;
          waiters.forEach((waiter, index) => waiter.resolve(counted + index + 1));
          // Mirrored here, so a fallback to local counting goes on from the shared count, not from zero.
          this.local.raiseTo(key, counted + waiters.length, Math.max(...waiters.map((waiter) => waiter.ttlSeconds)));
        }
      }
    } finally {
      this.writing.delete(key);
    }
  }

  /** Adds `amount` to the key with compare-and-set and returns the value before. */
  private async add(key: string, amount: number): Promise<number> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const kv = this.kv;
      if (!kv || !this.up) throw new KvUnavailable();
      const entry = await kv.get(key);
      try {
        if (!entry || entry.operation !== "PUT") {
          await kv.create(key, String(amount));
          return 0;
        }
        const before = Number.parseInt(entry.string(), 10) || 0;
        await kv.update(key, String(before + amount), entry.revision);
        return before;
      } catch (error) {
        if (!lostRace(error)) throw error;
      }
    }
    throw new Error(`rate-limit counter ${key}: ${ATTEMPTS} other nodes won in a row`);
  }

  async close(): Promise<void> {
    await this.local.close();
    await this.link.close();
  }
}
