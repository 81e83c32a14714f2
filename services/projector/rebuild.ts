// Rebuilds every read model from the full history into an emptied read store, batch by batch, reporting
// progress. This is how history is replayed for audit or after a read-model change.
import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { Logger } from "pino";
import { readAllBounded } from "../../shared/event-store/bounded-read.ts";
import type { EventStore, RecordedEvent } from "../../shared/event-store/event-store.port.ts";
import { happenedBy, type Instant } from "../../shared/history/instant.ts";
import type { ProjectionStore } from "../../shared/read-store/read-store.port.ts";
import { Projector } from "./projector.ts";

export interface RebuildProgress {
  readonly applied: number;
  readonly position: number;
  readonly head: number;
}

/** Event data a rebuild batch holds at most (about: see bounded-read.ts). */
const BATCH_BYTES = 32 * 1024 * 1024;

export async function rebuildReadModels<Tx>(options: {
  eventStore: EventStore;
  store: ProjectionStore<Tx>;
  logger: Logger;
  batchSize?: number;
  /** Event data (bytes, about) one batch reads and the projector commits at most; 32 MB to read by default. */
  batchBytes?: number;
  onProgress?: (progress: RebuildProgress) => void;
  /**
   * Replay only the log up to this instant: a position, or a time (the log is read in commit order and ends
   * at the first event recorded after it). Without it, the whole history.
   */
  until?: Instant;
}): Promise<{ applied: number; seconds: number; position: number }> {
  const started = performance.now();
  await options.store.beginRebuild();
  const head = await options.eventStore.headPosition();
  const projector = new Projector({
    eventStore: options.eventStore,
    store: options.store,
    logger: options.logger,
    ...(options.batchBytes ? { batchBytes: options.batchBytes } : {}),
  });
  const bounds = { maxEvents: options.batchSize ?? 1_000, maxBytes: options.batchBytes ?? BATCH_BYTES };
  let position = 0;
  let applied = 0;
  const { until } = options;
  const included = (event: RecordedEvent): boolean =>
    until === undefined || happenedBy(until, { position: event.position, occurredAt: event.metadata.occurredAt });
  while (position < head) {
    const read = await readAllBounded(options.eventStore, position, bounds);
    const firstLater = read.findIndex((event) => !included(event));
    const batch = firstLater === -1 ? read : read.slice(0, firstLater);
    const last = batch[batch.length - 1];
    if (last) {
      await projector.applyBatch(batch);
      applied += batch.length;
      position = last.position;
      options.onProgress?.({ applied, position, head });
    }
    if (!last || firstLater !== -1) break;
    // Reads and writes can be synchronous underneath (SQLite): a turn between batches lets the process breathe.
    await yieldToLoop();
  }
  await options.store.endRebuild();
  return { applied, seconds: (performance.now() - started) / 1000, position };
}

/** A store that builds read models beside the live ones and can then put them in their place. */
export interface SwitchableStore<Tx> extends ProjectionStore<Tx> {
  /** Makes the new read models the live ones; returns the generation they replaced, if any. */
  activate(): Promise<number | null>;
  dropGeneration(generation: number): Promise<void>;
}

/**
 * Replays the whole history into fresh read models while the live ones keep serving, follows whatever was
 * appended meanwhile until a read finds nothing new, and only then switches over: readers and the live
 * projector move to the new read models (the projector from their checkpoint), and after `graceMs` the old
 * ones are dropped.
 */
export async function replayAndSwitch<Tx>(options: {
  eventStore: EventStore;
  store: SwitchableStore<Tx>;
  logger: Logger;
  batchBytes?: number;
  onProgress?: (progress: RebuildProgress) => void;
  graceMs?: number;
}): Promise<{ applied: number; seconds: number; position: number; replaced: number | null }> {
  const started = performance.now();
  const rebuilt = await rebuildReadModels(options);
  const projector = new Projector({
    eventStore: options.eventStore,
    store: options.store,
    logger: options.logger,
    ...(options.batchBytes ? { batchBytes: options.batchBytes } : {}),
  });
  let { applied, position } = rebuilt;
  for (;;) {
    const batch = await readAllBounded(options.eventStore, position, { maxEvents: 1_000, maxBytes: BATCH_BYTES });
    const last = batch[batch.length - 1];
    if (!last) break;
    await projector.applyBatch(batch);
    applied += batch.length;
    position = last.position;
    options.onProgress?.({ applied, position, head: Math.max(position, await options.eventStore.headPosition()) });
    await yieldToLoop();
  }
  const replaced = await options.store.activate();
  options.logger.info({ event: "replay.switched", position, replaced });
  if (replaced !== null) {
    await new Promise((resolve) => setTimeout(resolve, options.graceMs ?? 5_000));
    await options.store.dropGeneration(replaced);
  }
  return { applied, seconds: (performance.now() - started) / 1000, position, replaced };
}
