// The projector follows the global log from its stored checkpoint and applies each batch to the read models
// together with the new checkpoint, so a crash at any point neither loses nor doubles an effect.
import type { Logger } from "pino";
import type { EventStore, RecordedEvent, Subscription } from "../../shared/event-store/event-store.port.ts";
import { parseRecorded, type StoredEvent } from "../../shared/events.ts";
import type { ProjectionMetrics } from "../../shared/metrics/metrics.port.ts";
import type { CheckpointWatcher } from "../../shared/read-store/checkpoint-watcher.ts";
import type { ProjectionStore } from "../../shared/read-store/read-store.port.ts";
import { BatchRefusedError } from "../../shared/read-store/batch-refused.ts";
import { ReadModelLayoutChangedError } from "../../shared/read-store/layout-changed.ts";
import { HistoryFolds } from "../../shared/history/history-folds.ts";
import { chunkByBytes, DEFAULT_BATCH_BYTES } from "./batch-bytes.ts";
import { project, type ProjectionGuard } from "./projections/project.ts";
import { parkedKey, type ParkedEvent, type ProjectionName } from "../../shared/read-store/parked-events.port.ts";
import { isStoreFault } from "../../shared/read-store/store-fault.ts";
import { batchTrace } from "../../shared/tracing/batch-trace.ts";
import { tracing } from "../../shared/tracing/tracing.port.ts";

export interface ProjectorOptions<Tx> {
  readonly eventStore: EventStore;
  readonly store: ProjectionStore<Tx>;
  readonly logger: Logger;
  readonly watcher?: CheckpointWatcher;
  readonly batchSize?: number;
  /** Bytes of events one batch holds at most (DEFAULT_BATCH_BYTES); a single larger event goes alone. */
  readonly batchBytes?: number;
  /** First wait after a failed batch; doubled at each failure in a row, up to maxRetryDelayMs. */
  readonly retryDelayMs?: number;
  readonly maxRetryDelayMs?: number;
  /** Failures in a row of the same batch after which the projector reports itself stalled (default 5). */
  readonly stallAfter?: number;
  readonly metrics?: ProjectionMetrics;
}

/** One event the read store refuses even alone: the batches were split down to it, and it cannot be split further. */
class PoisonEventError extends Error {
  constructor(
    readonly position: number,
    options: { cause: BatchRefusedError },
  ) {
    super(`the read store refuses the event at position ${position} even alone (${options.cause.refusal})`, options);
    this.name = "PoisonEventError";
  }
}

/** One projection threw on one event, for a reason of its own (not a store fault): the event can be parked for it. */
class ProjectionFailedError extends Error {
  constructor(
    readonly projection: ProjectionName,
    readonly event: StoredEvent,
    options: { cause: unknown },
  ) {
    super(
      `the ${projection} projection failed on event ${event.id} (position ${event.position}): ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`,
      options,
    );
    this.name = "ProjectionFailedError";
  }

  get reason(): string {
    return this.cause instanceof Error ? `${this.cause.name}: ${this.cause.message}` : String(this.cause);
  }
}

/**
 * The guard of one batch: applies each projection's part of an event, except where that projection has an
 * earlier event of the stream parked (then parks this one behind it) or was found failing on this very event
 * (then parks it with the error). `toPark` is what the projector decided to park, by event id.
 */
function parkingGuard<Tx>(options: {
  store: ProjectionStore<Tx>;
  tx: Tx;
  event: StoredEvent;
  blocked: Set<string>;
  toPark: ReadonlyMap<string, ReadonlyMap<ProjectionName, string>>;
  parked: ParkedEvent[];
  now: string;
}): ProjectionGuard {
  const { event } = options;
  return async (projection, apply) => {
    // Nothing parked nor to park (the usual batch): no key is made or looked up.
    const failure = options.toPark.size === 0 ? undefined : options.toPark.get(event.id)?.get(projection);
    const behind = options.blocked.size > 0 && options.blocked.has(parkedKey(projection, event.stream));
    if (failure === undefined && !behind) {
      try {
        await apply();
      } catch (error) {
        if (isStoreFault(error) || error instanceof BatchRefusedError) throw error;
        throw new ProjectionFailedError(projection, event, { cause: error });
      }
      return;
    }
    const record: ParkedEvent = {
      eventId: event.id,
      position: event.position,
      stream: event.stream,
      type: event.event.type,
      projection,
      cause: failure === undefined ? "behind" : "failed",
      error: failure ?? `an earlier event of ${event.stream} is parked for this projection`,
      parkedAt: options.now,
      attempts: 1,
    };
    await options.store.parked.park(options.tx, record);
    options.blocked.add(parkedKey(projection, event.stream));
    options.parked.push(record);
  };
}

/** A batch that keeps failing: every later event waits behind it. */
export interface ProjectionStall {
  /** The checkpoint the failing batch starts after. */
  readonly position: number;
  readonly attempts: number;
  readonly since: string;
}

export class Projector<Tx> {
  private subscription: Subscription | null = null;
  private stopped = true;
  private position = 0;
  private failures = 0;
  private failingSince: string | null = null;
  /** Set when a single event failed alone (PoisonEventError): the stall shows at once, without waiting for stallAfter. */
  private poisoned = false;
  /** Set when the read models turned out laid out by another release: this projector stopped for good. */
  private superseded = false;
  /** Events found failing in one projection when applied alone, to park for it when their batch is applied again. */
  private readonly toPark = new Map<string, Map<ProjectionName, string>>();

  constructor(private readonly options: ProjectorOptions<Tx>) {}

  /** Position of the last committed batch. */
  get checkpoint(): number {
    return this.position;
  }

  get healthy(): boolean {
    return !this.stopped && this.failures === 0;
  }

  /**
   * Set once the same batch failed `stallAfter` times in a row (a poison batch: a read model refuses an event,
   * a store limit is hit); /readyz then answers 503 and `projector_stalled` is 1. The projector keeps retrying
   * with backoff, and clears it when the batch commits. A single event the store refuses even alone stalls at
   * once: splitting cannot get past it. So do read models laid out by another release
   * (ReadModelLayoutChangedError): the projector then stops, since writing its own layout there would mix two.
   */
  get stall(): ProjectionStall | null {
    if (
      (!this.poisoned && !this.superseded && this.failures < (this.options.stallAfter ?? 5)) ||
      this.failingSince === null
    )
      return null;
    return { position: this.position, attempts: this.failures, since: this.failingSince };
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.position = await this.options.store.checkpoint();
    this.options.watcher?.announce(this.position);
    this.follow();
  }

  private follow(): void {
    if (this.stopped) return;
    const subscription = this.options.eventStore.subscribe(this.position, (batch) => this.applyBatch(batch), {
      batchSize: this.options.batchSize ?? 500,
      maxBytes: this.options.batchBytes ?? DEFAULT_BATCH_BYTES,
    });
    this.subscription = subscription;
    subscription.done.then(
      () => undefined,
      (error: unknown) => {
        this.failures += 1;
        this.failingSince ??= new Date().toISOString();
        if (error instanceof ReadModelLayoutChangedError) return this.stopSuperseded(error);
        this.poisoned = error instanceof PoisonEventError;
        const first = this.options.retryDelayMs ?? 1_000;
        const delay = Math.min(first * 2 ** Math.min(this.failures - 1, 16), this.options.maxRetryDelayMs ?? 60_000);
        const stall = this.stall;
        this.options.metrics?.batchFailed(stall !== null);
        this.options.logger.error(
          {
            event: stall ? "projection.stalled" : "projection.failed",
            err: error,
            position: this.position,
            attempts: this.failures,
            retryInMs: delay,
          },
          stall
            ? "the same projection batch keeps failing; every later event waits behind it (docs/operations/troubleshooting.md: a stalled projector)"
            : "projection batch failed",
        );
        const timer = setTimeout(() => void this.resume(), delay);
        timer.unref();
      },
    );
  }

  /** Read models of another layout: stops for good and alerts (stalled), without retrying. */
  private stopSuperseded(error: ReadModelLayoutChangedError): void {
    this.superseded = true;
    this.stopped = true;
    this.subscription = null;
    this.options.metrics?.batchFailed(true);
    this.options.logger.error(
      {
        event: "projection.layout_changed",
        err: error,
        found: error.found,
        expected: error.expected,
        position: this.position,
      },
      "the read models are laid out by another release; this projector stopped (docs/operations/mongodb.md: a layout change at start)",
    );
  }

  /**
   * Follows again from the store's checkpoint, which is where the failed batch left it unless the read models
   * were switched to another generation by a replay in the meantime (then the new generation's checkpoint).
   */
  private async resume(): Promise<void> {
    try {
      this.position = await this.options.store.checkpoint();
      this.options.watcher?.announce(this.position);
    } catch (error) {
      this.options.logger.warn(
        { event: "projection.checkpoint_unreadable", err: error },
        "checkpoint unreadable; retrying from the last known position",
      );
    }
    this.follow();
  }

  /**
   * Applies a run of the global log: in batches of at most `batchBytes`, each committed atomically with its
   * checkpoint. A batch the store refuses as too large or too long is split in two and each half applied in
   * turn, down to single events; only an event refused alone fails the run (PoisonEventError), after every
   * event before it was committed.
   */
  async applyBatch(batch: readonly RecordedEvent[]): Promise<void> {
    for (const chunk of chunkByBytes(batch, this.options.batchBytes ?? DEFAULT_BATCH_BYTES))
      await this.applySplitting(chunk);
  }

  private async applySplitting(events: readonly RecordedEvent[]): Promise<void> {
    try {
      await this.commit(events);
    } catch (error) {
      if (!(error instanceof BatchRefusedError) && !(error instanceof ProjectionFailedError)) throw error;
      const [first] = events;
      if (!first) return;
      if (error instanceof ProjectionFailedError && events.length === 1) {
        // The event alone fails in this projection: parked for it; the batch is applied again without it.
        const parking = this.toPark.get(first.id) ?? new Map<ProjectionName, string>();
        if (parking.has(error.projection)) throw error;
        parking.set(error.projection, error.reason);
        this.toPark.set(first.id, parking);
        this.options.logger.error(
          {
            event: "projection.parked",
            err: error.cause,
            projection: error.projection,
            eventId: first.id,
            position: first.position,
            stream: first.stream,
            type: first.type,
          },
          "a projection cannot apply this event: parked for it, the other projections go on (docs/operations/troubleshooting.md: a parked event)",
        );
        await this.applySplitting(events);
        return;
      }
      if (events.length === 1 && error instanceof BatchRefusedError)
        throw new PoisonEventError(first.position, { cause: error });
      const half = Math.ceil(events.length / 2);
      const why =
        error instanceof BatchRefusedError
          ? { refusal: error.refusal }
          : { projection: error.projection, failedAt: error.event.position };
      this.options.logger.warn({
        event: "projection.batch_split",
        ...why,
        count: events.length,
        from: first.position,
        into: [half, events.length - half],
      });
      await this.applySplitting(events.slice(0, half));
      await this.applySplitting(events.slice(half));
    }
  }

  /** Commits one batch with its checkpoint, all or nothing. */
  private async commit(batch: readonly RecordedEvent[]): Promise<void> {
    const last = batch[batch.length - 1];
    if (!last) return;
    const started = performance.now();
    const stored = batch.map(parseRecorded);
    const { store } = this.options;
    const parked: ParkedEvent[] = [];
    const now = new Date().toISOString();
    const apply = async (tx: Tx): Promise<void> => {
      parked.length = 0;
      const blocked = await store.parked.blocked(tx, [...new Set(stored.map((event) => event.stream))]);
      const folds = new HistoryFolds(store.writers.history, tx);
      for (const event of stored)
        await project(
          event,
          store.writers,
          tx,
          folds,
          parkingGuard({ store, tx, event, blocked, toPark: this.toPark, parked, now }),
        );
      await folds.flush();
    };
    await tracing().inSpan(
      "projector.batch",
      {
        kind: "consumer",
        ...batchTrace(batch),
        attributes: { "workspace.event.count": batch.length, "workspace.position": last.position },
      },
      () =>
        tracing().inSpan("read_store.transaction", { kind: "client" }, () => store.applyBatch(last.position, apply)),
    );
    for (const event of stored) this.toPark.delete(event.id);
    if (parked.length > 0) {
      this.options.metrics?.eventsParked(parked.length);
      for (const record of parked.filter((one) => one.cause === "behind")) {
        this.options.logger.warn(
          {
            event: "projection.parked_behind",
            projection: record.projection,
            eventId: record.eventId,
            position: record.position,
            stream: record.stream,
          },
          "parked behind an earlier parked event of its stream",
        );
      }
    }
    this.position = last.position;
    this.failures = 0;
    this.failingSince = null;
    this.poisoned = false;
    this.options.watcher?.announce(last.position);
    const ms = performance.now() - started;
    this.options.metrics?.batchProjected({
      position: last.position,
      count: batch.length,
      lastOccurredAt: last.metadata.occurredAt,
      seconds: ms / 1000,
    });
    this.options.logger.debug({ event: "projection.batch", count: batch.length, position: last.position, ms });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.stop();
    this.subscription = null;
  }
}
