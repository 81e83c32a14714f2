// The event store port (docs/contributing/adding-an-event.md): streams of facts with optimistic concurrency and one global order.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import { traceparentSchema } from "../tracing/tracing.port.ts";

export const eventMetadataSchema = z.object({
  actorId: z.string().min(1),
  correlationId: z.string().min(1),
  /** The API token the actor acted through; absent for a browser session and for events written before it was recorded. */
  tokenId: z.string().min(1).nullable().optional(),
  causationId: z.string().min(1).nullable(),
  occurredAt: z.string().datetime({ offset: true }),
  schemaVersion: z.number().int().positive(),
  /**
   * The W3C trace context of the request that appended the event, when tracing was on: random ids, no personal
   * data. Read back only when well formed (a malformed one reads as absent, never as a corrupt event).
   */
  traceparent: traceparentSchema.optional().catch(undefined),
});
export type EventMetadata = z.infer<typeof eventMetadataSchema>;

/** `no_stream`: the stream must not exist yet; `any`: no check; a number: the revision of the stream's last event. */
export type ExpectedRevision = number | "no_stream" | "any";

export interface NewEvent {
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

export interface RecordedEvent {
  readonly id: string;
  readonly type: string;
  readonly stream: string;
  /** 0-based index of the event in its stream. */
  readonly revision: number;
  /**
   * Place in the global log: strictly increasing in commit order, but not dense (EventStoreDB's commit positions
   * are byte offsets), so never count events by subtracting positions. Clients see it only as an opaque decimal
   * string (the consistency token). Adapters keep it within Number.MAX_SAFE_INTEGER and fail loudly beyond.
   */
  readonly position: number;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

export interface AppendResult {
  /** Revision of the stream's last event after the append. */
  readonly nextRevision: number;
  /** Global position of the last appended event. */
  readonly position: number;
}

export interface StreamRead {
  /** Revision of the stream's last event, -1 when the stream does not exist: the expected revision of the next append. */
  readonly revision: number;
  readonly events: RecordedEvent[];
}

export type BatchHandler = (events: readonly RecordedEvent[]) => Promise<void>;

export interface SubscriptionOptions {
  readonly batchSize?: number;
  readonly maxBytes?: number;
}

/**
 * What one subscription batch holds at most when its subscriber says nothing: events near the size of one change
 * go a few at a time, so a subscriber far behind never loads hundreds of them at once.
 */
export const DEFAULT_SUBSCRIPTION_BYTES = 4 * 1024 * 1024;

export interface Subscription {
  /** Stops delivering; resolves once the batch in hand (if any) is handled. */
  stop(): Promise<void>;
  /** Resolves when the subscription ends: after stop(), or rejects when the handler failed. */
  readonly done: Promise<void>;
}

export interface EventStore {
  append(stream: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /** Every event of the stream in revision order; an unknown stream reads as empty at revision -1. */
  read(stream: string): Promise<StreamRead>;
  /**
   * Events after `afterPosition` in global order, at most `limit` of them. The global log leaves out system
   * events (types beginning with `$`: the store's own bookkeeping, such as EventStoreDB's stream metadata);
   * `read` of their stream still returns them. The application never writes such types.
   * `maxBytes`, when given, also bounds the events' data and metadata in bytes (at least one event is returned):
   * a loop over the log holds a bounded amount whatever the events weigh. Every adapter honours it; one that
   * cannot tell sizes before loading stops reading at the first event that would pass it.
   */
  readAll(afterPosition: number, limit: number, maxBytes?: number): Promise<RecordedEvent[]>;
  /** Global position of the newest event of the global log, 0 when the store is empty. */
  headPosition(): Promise<number>;
  /**
   * Delivers every event of the global log after `afterPosition` in order, then follows new ones as they are
   * committed, in batches of at most `batchSize` events and `maxBytes` bytes (DEFAULT_SUBSCRIPTION_BYTES).
   */
  subscribe(afterPosition: number, handler: BatchHandler, options?: SubscriptionOptions): Subscription;
  close(): Promise<void>;
}

/** The stream's revision did not match the expected one: nothing was appended. */
export class StreamConflictError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number,
  ) {
    super(`stream ${stream} is at revision ${actual}, expected ${String(expected)}`);
  }
}

/**
 * The stream was deleted for good (an EventStoreDB tombstone, by an operator's tool: the application never deletes
 * a stream): what it held no longer exists, so a command on it answers 404, and it can never be written again.
 */
export class StreamDeletedError extends AppError {
  constructor(readonly stream: string) {
    super("not_found", "not found: it was deleted");
  }
}
