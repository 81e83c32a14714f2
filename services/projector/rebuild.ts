// Rebuilds every read model from the full history into an emptied read store, batch by batch, reporting
// progress. This is how history is replayed for audit or after a read-model change.
import type { Logger } from "pino";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import type { ProjectionStore } from "../../shared/read-store/read-store.port.ts";
import { Projector } from "./projector.ts";

export interface RebuildProgress {
  readonly applied: number;
  readonly position: number;
  readonly head: number;
}

export async function rebuildReadModels<Tx>(options: {
  eventStore: EventStore;
  store: ProjectionStore<Tx>;
  logger: Logger;
  batchSize?: number;
  onProgress?: (progress: RebuildProgress) => void;
}): Promise<{ applied: number; seconds: number }> {
  const started = performance.now();
  await options.store.beginRebuild();
  const head = await options.eventStore.headPosition();
  const projector = new Projector({ eventStore: options.eventStore, store: options.store, logger: options.logger });
  const batchSize = options.batchSize ?? 1_000;
  let position = 0;
  let applied = 0;
  while (position < head) {
    const batch = await options.eventStore.readAll(position, batchSize);
    const last = batch[batch.length - 1];
    if (!last) break;
    await projector.applyBatch(batch);
    applied += batch.length;
    position = last.position;
    options.onProgress?.({ applied, position, head });
  }
  await options.store.endRebuild();
  return { applied, seconds: (performance.now() - started) / 1000 };
}
