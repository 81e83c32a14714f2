// The event store port on EventStoreDB / KurrentDB, through @kurrent/kurrentdb-client: the maintained successor
// of @eventstore/db-client (which has had no release since December 2024), speaking the same gRPC protocol to
// EventStoreDB 23.10 and later and to KurrentDB. Connection from EVENTSTORE_URL (`esdb://host:2113?tls=false`).
//
// - Appends carry the expected revision; the server's wrong-expected-version error becomes StreamConflictError.
//   Our event ids are the server's event ids, so a repeated append of the same events is idempotent.
// - Positions are commit positions (byte offsets into the log: ordered, not dense), kept as numbers and refused
//   beyond Number.MAX_SAFE_INTEGER (8 PiB of log) rather than rounded.
// - The global log is $all read with the server-side filter that drops system events ($-prefixed types), and
//   what is read is checked again (isApplicationEvent): a namespace's filter passes its streams' system events.
// - subscribe() catches up from a stored commit position by reading $all in batches and resuming after the last
//   event it handled, and a live, filtered subscription to $all wakes it as events are committed. A dropped live
//   subscription is opened again after a pause; reading always resumes after the last handled position, so a
//   reconnection leaves no gap and repeats nothing.
// - With a namespace (EVENTSTORE_NAMESPACE), several deployments share one server: every stream is stored as
//   `<namespace>:<stream>` (its metadata stream as `$$<namespace>:<stream>`), and the global log is $all read
//   with a server-side stream-prefix filter instead, so each sees its own streams only.
import {
  BACKWARDS,
  END,
  excludeSystemEvents,
  streamNameFilter,
  FORWARDS,
  jsonEvent,
  KurrentDBClient,
  NO_STREAM,
  ANY,
  START,
  StreamNotFoundError,
  StreamDeletedError as ClientStreamDeletedError,
  WrongExpectedVersionError,
  MaxAppendSizeExceededError,
  AppendRecordSizeExceededError,
  type AllStreamResolvedEvent,
  type AppendStreamState,
  type ResolvedEvent,
} from "@kurrent/kurrentdb-client";
import { z } from "zod";
import { isApplicationEvent } from "./own-events.ts";
import { AppendTooLargeError } from "../../event-store/append-size.ts";
import { catchUpSubscription, type WakeSource } from "../../event-store/catch-up-subscription.ts";
import {
  DEFAULT_SUBSCRIPTION_BYTES,
  eventMetadataSchema,
  StreamConflictError,
  StreamDeletedError,
  type AppendResult,
  type BatchHandler,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type StreamRead,
  type Subscription,
  type SubscriptionOptions,
} from "../../event-store/event-store.port.ts";

const POLL_MS = 500;
const RESUBSCRIBE_MS = 1_000;
const DEFAULT_BATCH = 500;
/** Events read at a time backwards from the end when looking for the head past system events. */
const HEAD_PAGE = 10;

type ReadPosition = typeof END | { commit: bigint; prepare: bigint };
/** What a stored event's data must be to be ours: a JSON object. */
const jsonObject = z.record(z.string(), z.unknown());

function positionOf(commit: bigint | undefined, what: string): number {
  if (commit === undefined) throw new Error(`EventStoreDB returned ${what} without a commit position`);
  if (commit > BigInt(Number.MAX_SAFE_INTEGER))
    throw new Error(`commit position ${commit} is beyond what this adapter represents exactly`);
  return Number(commit);
}

function streamStateOf(expected: ExpectedRevision): AppendStreamState {
  if (expected === "no_stream") return NO_STREAM;
  if (expected === "any") return ANY;
  return BigInt(expected);
}

/** How our stream names map to the server's: as they are, or inside a namespace. */
export class StreamNames {
  constructor(private readonly namespace: string | null) {}

  stored(stream: string): string {
    if (this.namespace === null) return stream;
    return stream.startsWith("$$") ? `$$${this.namespace}:${stream.slice(2)}` : `${this.namespace}:${stream}`;
  }

  ours(stored: string): string {
    if (this.namespace === null) return stored;
    const prefix = `${this.namespace}:`;
    if (stored.startsWith(prefix)) return stored.slice(prefix.length);
    if (stored.startsWith(`$$${prefix}`)) return `$$${stored.slice(prefix.length + 2)}`;
    return stored;
  }

  /** The server-side filter of the global log: our streams' events, never system events. */
  filter() {
    return this.namespace === null ? excludeSystemEvents() : streamNameFilter({ prefixes: [`${this.namespace}:`] });
  }
}

/** An event's data and metadata in UTF-8 bytes, as SQLite's octet_length counts them. */
function storedBytes(event: RecordedEvent): number {
  return Buffer.byteLength(JSON.stringify(event.data) ?? "") + Buffer.byteLength(JSON.stringify(event.metadata));
}

/** The client's event, checked at the boundary: JSON data and our metadata. */
function toRecorded(names: StreamNames, resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent {
  const event = resolved.event;
  if (!event) throw new Error("EventStoreDB returned a link without its event");
  if (!event.isJson) throw new Error(`event ${event.id} in ${event.streamId} is not JSON`);
  return {
    id: event.id,
    type: event.type,
    stream: names.ours(event.streamId),
    revision: Number(event.revision),
    position: positionOf(event.position?.commit ?? resolved.commitPosition, `event ${event.id}`),
    data: event.data,
    metadata: eventMetadataSchema.parse(event.metadata),
  };
}

/** System streams' metadata events are not in our schema: read back as they are, for `read` of such a stream. */
function toSystemRecorded(names: StreamNames, resolved: ResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event || !event.type.startsWith("$")) return null;
  return {
    id: event.id,
    type: event.type,
    stream: names.ours(event.streamId),
    revision: Number(event.revision),
    position: positionOf(event.position?.commit ?? resolved.commitPosition ?? 0n, `event ${event.id}`),
    data: event.isJson ? event.data : null,
    metadata: {
      actorId: "system",
      correlationId: "system",
      causationId: null,
      occurredAt: event.created.toISOString(),
      schemaVersion: 1,
    },
  };
}

export class EventStoreDbEventStore implements EventStore {
  private readonly wakeListeners = new Set<() => void>();
  private live: { unsubscribe(): Promise<void> } | null = null;
  private resubscribeTimer: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(
    private readonly client: KurrentDBClient,
    private readonly names: StreamNames,
  ) {}

  static connect(url: string, options: { namespace?: string } = {}): EventStoreDbEventStore {
    return new EventStoreDbEventStore(
      KurrentDBClient.connectionString(url),
      new StreamNames(options.namespace ?? null),
    );
  }

  async append(stream: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    const data = events.map((event) =>
      jsonEvent({
        id: event.id,
        type: event.type,
        data: jsonObject.parse(event.data),
        metadata: {
          ...event.metadata,
          $correlationId: event.metadata.correlationId,
          ...(event.metadata.causationId ? { $causationId: event.metadata.causationId } : {}),
        },
      }),
    );
    try {
      const result = await this.client.appendToStream(this.names.stored(stream), data, {
        streamState: streamStateOf(expectedRevision),
      });
      const nextRevision = Number(result.nextExpectedRevision);
      // An idempotent repeat may come back without a position: the stream's last event has it.
      const position = result.position
        ? positionOf(result.position.commit, "an append")
        : await this.positionOfRevision(stream, nextRevision);
      return { nextRevision, position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = typeof error.actualState === "bigint" ? Number(error.actualState) : -1;
        throw new StreamConflictError(stream, expectedRevision, actual);
      }
      // A server configured below the application's limit (MAX_APPEND_BYTES) refuses what the domain let through.
      if (error instanceof ClientStreamDeletedError) throw new StreamDeletedError(stream);
      if (error instanceof MaxAppendSizeExceededError || error instanceof AppendRecordSizeExceededError)
        throw new AppendTooLargeError(null);
      throw error;
    }
  }

  private async positionOfRevision(stream: string, revision: number): Promise<number> {
    for await (const resolved of this.client.readStream(this.names.stored(stream), {
      fromRevision: BigInt(revision),
      maxCount: 1,
      direction: FORWARDS,
    })) {
      return toRecorded(this.names, resolved).position;
    }
    throw new Error(`stream ${stream} has no event at revision ${revision}`);
  }

  async read(stream: string): Promise<StreamRead> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(this.names.stored(stream), {
        fromRevision: START,
        direction: FORWARDS,
      })) {
        events.push(toSystemRecorded(this.names, resolved) ?? toRecorded(this.names, resolved));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return { revision: -1, events: [] };
      if (error instanceof ClientStreamDeletedError) throw new StreamDeletedError(stream);
      throw error;
    }
    return { revision: events.at(-1)?.revision ?? -1, events };
  }

  /**
   * The server tells no sizes before sending: with `maxBytes`, reading stops at the first event that would pass
   * it (leaving the server's stream there), so at most one event beyond the bound is ever held.
   */
  async readAll(afterPosition: number, limit: number, maxBytes?: number): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    let bytes = 0;
    let after = afterPosition;
    // System events skipped here still count against the server's maxCount: read on until `limit` events are
    // found or the log ends, so a run of them (tombstones of many deleted streams) never reads as the end.
    for (;;) {
      const from = after === 0 ? START : { commit: BigInt(after), prepare: BigInt(after) };
      let read = 0;
      // Reading from a position includes the event there: one more than asked, and skip what is not after it.
      for await (const resolved of this.client.readAll({
        fromPosition: from,
        maxCount: limit + 1,
        direction: FORWARDS,
        filter: this.names.filter(),
      })) {
        read += 1;
        const position = positionOf(resolved.event?.position?.commit ?? resolved.commitPosition, "an event of $all");
        if (position <= after) continue;
        after = position;
        if (!isApplicationEvent(resolved)) continue;
        const event = toRecorded(this.names, resolved);
        if (maxBytes !== undefined) {
          bytes += storedBytes(event);
          if (events.length > 0 && bytes > maxBytes) return events;
        }
        events.push(event);
        if (events.length === limit) return events;
      }
      if (read < limit + 1) return events;
    }
  }

  async headPosition(): Promise<number> {
    // Backwards from the end, past any system events (a tombstone last in the log), to the newest of ours.
    let before: bigint | null = null;
    for (;;) {
      const fromPosition: ReadPosition = before === null ? END : { commit: before, prepare: before };
      let read = 0;
      for await (const resolved of this.client.readAll({
        fromPosition,
        maxCount: HEAD_PAGE,
        direction: BACKWARDS,
        filter: this.names.filter(),
      })) {
        read += 1;
        const commit: bigint | undefined = resolved.event?.position?.commit ?? resolved.commitPosition;
        if (commit === undefined || (before !== null && commit >= before)) continue;
        if (isApplicationEvent(resolved)) return toRecorded(this.names, resolved).position;
        before = commit;
      }
      if (read < HEAD_PAGE) return 0;
    }
  }

  subscribe(afterPosition: number, handler: BatchHandler, options: SubscriptionOptions = {}): Subscription {
    return catchUpSubscription({
      afterPosition,
      batchSize: options.batchSize ?? DEFAULT_BATCH,
      maxBytes: options.maxBytes ?? DEFAULT_SUBSCRIPTION_BYTES,
      pollMs: POLL_MS,
      readAll: (after, limit, maxBytes) => this.readAll(after, limit, maxBytes),
      wake: this.wakeSource(),
      handler,
    });
  }

  /** Wake-ups from one live, filtered subscription to $all, shared by every catch-up of this store. */
  private wakeSource(): WakeSource {
    return {
      onAppend: (listener) => {
        this.wakeListeners.add(listener);
        this.ensureLive();
        return () => {
          this.wakeListeners.delete(listener);
        };
      },
    };
  }

  private ensureLive(): void {
    if (this.live || this.closed) return;
    const subscription = this.client.subscribeToAll({ fromPosition: END, filter: this.names.filter() });
    const reopen = () => {
      if (this.live !== subscription) return;
      this.live = null;
      if (this.closed || this.wakeListeners.size === 0) return;
      this.resubscribeTimer = setTimeout(() => this.ensureLive(), RESUBSCRIBE_MS);
      this.resubscribeTimer.unref();
    };
    subscription.on("data", () => {
      for (const listener of this.wakeListeners) listener();
    });
    subscription.on("error", reopen);
    subscription.on("end", reopen);
    subscription.on("close", reopen);
    this.live = subscription;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.resubscribeTimer) clearTimeout(this.resubscribeTimer);
    const live = this.live;
    this.live = null;
    await live?.unsubscribe().catch(() => undefined);
    await this.client.dispose();
  }
}
