// A stream's events projected straight into real SQLite read models, batch by batch, without an event store's
// subscription: for read-model tests that need a long history in place before they start.
import { randomUUID } from "node:crypto";
import pino from "pino";
import type { RecordedEvent } from "../../shared/event-store/event-store.port.ts";
import { schemaVersionOf } from "../../shared/event-store/upcasters.ts";
import type { DomainEvent } from "../../shared/events.ts";
import type { SqliteBatch } from "../../shared/adapters/sqlite/sqlite-batch.ts";
import { Projector } from "../../services/projector/projector.ts";
import { projectorStores, type ProjectorStores } from "./projector-stores.ts";

export interface ProjectedLog {
  readonly stores: ProjectorStores;
  readonly projector: Projector<SqliteBatch>;
  /** The events as the log holds them: revisions from 0, positions from 1, one second apart. */
  readonly recorded: readonly RecordedEvent[];
}

/** Records `events` as one stream written by `actorId`, and projects them `batchSize` at a time. */
export async function projectedLog(
  stream: string,
  actorId: string,
  events: readonly DomainEvent[],
  batchSize: number,
): Promise<ProjectedLog> {
  const stores = await projectorStores();
  const projector = new Projector({
    eventStore: stores.eventStore,
    store: stores.projection,
    logger: pino({ level: "silent" }),
  });
  const recorded = events.map((event, revision): RecordedEvent => ({
    id: randomUUID(),
    type: event.type,
    stream,
    revision,
    position: revision + 1,
    data: event.data,
    metadata: {
      actorId,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, revision)).toISOString(),
      schemaVersion: schemaVersionOf(event.type),
    },
  }));
  for (let from = 0; from < recorded.length; from += batchSize)
    await projector.applyBatch(recorded.slice(from, from + batchSize));
  return { stores, projector, recorded };
}
