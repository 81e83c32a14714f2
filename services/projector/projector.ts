// The projector follows the global log from its stored checkpoint and applies each batch to the read models
// together with the new checkpoint, so a crash at any point neither loses nor doubles an effect.
import type { Logger } from "pino";
import type { EventStore, RecordedEvent, Subscription } from "../../shared/event-store/event-store.port.ts";
import { parseRecorded, type StoredEvent } from "../../shared/events.ts";
import type { ProjectionMetrics } from "../../shared/metrics/metrics.port.ts";
import type { CheckpointWatcher } from "../../shared/read-store/checkpoint-watcher.ts";
import type { ProjectionStore } from "../../shared/read-store/read-store.port.ts";
import { HistoryFolds } from "../../shared/history/history-folds.ts";
import { project } from "./projections/project.ts";

export interface ProjectorOptions<Tx> {
  readonly eventStore: EventStore;
  readonly store: ProjectionStore<Tx>;
  readonly logger: Logger;
  readonly watcher?: CheckpointWatcher;
  readonly batchSize?: number;
  /**
   * Publishes a batch's integration events to the bus, inside the batch: when it fails, the batch is rolled
   * back and retried, so no event is lost for the bus; a republished event is recognised by its id.
   */
  readonly publish?: (events: readonly StoredEvent[]) => Promise<void>;
  readonly retryDelayMs?: number;
  readonly metrics?: ProjectionMetrics;
}

export class Projector<Tx> {
  private subscription: Subscription | null = null;
  private stopped = true;
  private position = 0;
  private failures = 0;

  constructor(private readonly options: ProjectorOptions<Tx>) {}

  /** Position of the last committed batch. */
  get checkpoint(): number {
    return this.position;
  }

  get healthy(): boolean {
    return !this.stopped && this.failures === 0;
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
    });
    this.subscription = subscription;
    subscription.done.then(
      () => undefined,
      (error: unknown) => {
        this.failures += 1;
        this.options.logger.error({ event: "projection.failed", err: error, position: this.position }, "projection batch failed");
        const timer = setTimeout(() => void this.resume(), this.options.retryDelayMs ?? 1_000);
        timer.unref();
      },
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
      this.options.logger.warn({ event: "projection.checkpoint_unreadable", err: error }, "checkpoint unreadable; retrying from the last known position");
    }
    this.follow();
  }

  /** Applies one batch of the global log atomically with its checkpoint. */
  async applyBatch(batch: readonly RecordedEvent[]): Promise<void> {
    const last = batch[batch.length - 1];
    if (!last) return;
    const started = performance.now();
    const stored = batch.map(parseRecorded);
    const { store } = this.options;
    await store.applyBatch(last.position, async (tx) => {
      const folds = new HistoryFolds(store.writers.history, tx);
      for (const event of stored) await project(event, store.writers, tx, folds);
      await folds.flush();
      await this.options.publish?.(stored);
    });
    this.position = last.position;
    this.failures = 0;
    this.options.watcher?.announce(last.position);
    const ms = performance.now() - started;
    this.options.metrics?.batchProjected({ position: last.position, count: batch.length, lastOccurredAt: last.metadata.occurredAt, seconds: ms / 1000 });
    this.options.logger.debug({ event: "projection.batch", count: batch.length, position: last.position, ms });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.stop();
    this.subscription = null;
  }
}
