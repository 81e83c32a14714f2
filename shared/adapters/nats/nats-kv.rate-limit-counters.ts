// Rate-limit counters in a NATS JetStream KV bucket, shared by every node of a split deployment. An increment
// is a compare-and-set: `create` for a new key, `update` at the revision read, retried when another node
// wrote in between. The bucket's TTL (max_age) is at least the longest window, so a counter outlives its
// window and the server forgets it afterwards.
import { JetStreamApiCodes, JetStreamApiError, jetstream, jetstreamManager } from "@nats-io/jetstream";
import { Kvm, type KV } from "@nats-io/kv";
import { connect, nanos, type NatsConnection } from "@nats-io/transport-node";
import type { RateLimitCounters } from "../../rate-limit/rate-limit-counters.port.ts";

export interface NatsRateLimitCountersOptions {
  readonly bucket?: string;
  /** The longest window any policy uses: the bucket keeps a counter at least this long after its last write. */
  readonly maxWindowSeconds: number;
  readonly name?: string;
}

/**
 * How long one KV request may wait for the server: while NATS is away each counted request waits this long,
 * then goes through unlimited (shared/http/rate-limit.ts), so it is kept short.
 */
const REQUEST_TIMEOUT_MS = 1_000;

/** Compare-and-set attempts before an increment gives up: each lost attempt means another node counted. */
const ATTEMPTS = 32;

const lostRace = (error: unknown): boolean =>
  error instanceof JetStreamApiError && (error.code === JetStreamApiCodes.StreamWrongLastSequence || error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown);

export class NatsRateLimitCounters implements RateLimitCounters {
  private constructor(
    private readonly connection: NatsConnection,
    private readonly kv: KV,
  ) {}

  static async connect(url: string, options: NatsRateLimitCountersOptions): Promise<NatsRateLimitCounters> {
    const bucket = options.bucket ?? "workspace-rate-limits";
    const ttlMs = options.maxWindowSeconds * 1_000;
    const connection = await connect({ servers: url, name: options.name ?? "workspace-rate-limits", maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    try {
      const kv = await new Kvm(jetstream(connection, { timeout: REQUEST_TIMEOUT_MS })).create(bucket, { history: 1, ttl: ttlMs });
      // An existing bucket keeps the TTL it was made with: lengthen it when a window grew.
      const status = await kv.status();
      if (status.ttl < ttlMs) {
        const manager = await jetstreamManager(connection);
        const stream = status.streamInfo.config.name;
        await manager.streams.update(stream, { ...status.streamInfo.config, max_age: nanos(ttlMs) });
      }
      return new NatsRateLimitCounters(connection, kv);
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  async increment(key: string): Promise<number> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const entry = await this.kv.get(key);
      try {
        if (!entry || entry.operation !== "PUT") {
          await this.kv.create(key, "1");
          return 1;
        }
        const next = (Number.parseInt(entry.string(), 10) || 0) + 1;
        await this.kv.update(key, String(next), entry.revision);
        return next;
      } catch (error) {
        if (!lostRace(error)) throw error;
      }
    }
    throw new Error(`rate-limit counter ${key}: ${ATTEMPTS} concurrent writers won in a row`);
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
