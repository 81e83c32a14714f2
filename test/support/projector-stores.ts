// The stores a projector test runs against: a real SQLite event store and read-model file in a temporary
// directory, the projection's writer and a reader over the same file, closed together; and that projection
// store with one read model made to fail, for the projector's failure paths.
import { join } from "node:path";
import type { SqliteBatch } from "../../shared/adapters/sqlite/sqlite-batch.ts";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import { SqliteProjectionStore, SqliteReadStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import type { ProjectionStore, ProjectionWriters } from "../../shared/read-store/read-store.port.ts";
import { tempDir } from "./temp-dir.ts";

export interface ProjectorStores {
  readonly eventStore: SqliteEventStore;
  readonly projection: SqliteProjectionStore;
  readonly reader: SqliteReadStore;
  /** The read models' file, for what a test does to it behind the stores' back. */
  readonly readModelsFile: string;
  close(): Promise<void>;
}

export async function projectorStores(): Promise<ProjectorStores> {
  const dir = await tempDir();
  const eventStore = new SqliteEventStore(join(dir.path, "events.sqlite"), { pollMs: 20 });
  const readModelsFile = join(dir.path, "read.sqlite");
  const projection = new SqliteProjectionStore(readModelsFile);
  const reader = new SqliteReadStore(readModelsFile);
  return {
    eventStore,
    projection,
    reader,
    readModelsFile,
    async close() {
      await reader.close();
      await projection.close();
      await eventStore.close();
      await dir.remove();
    },
  };
}

/**
 * The projection store with its pages read model throwing, when asked to store a page, the error `failure`
 * answers for that page's id (null: the page is stored); every other read model as the store has it.
 */
export function withPagePutFailing(
  projection: SqliteProjectionStore,
  failure: (pageId: string) => Error | null,
): ProjectionStore<SqliteBatch> {
  const pages: ProjectionWriters<SqliteBatch>["pages"] = new Proxy(projection.writers.pages, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== "put" || typeof value !== "function") return value;
      return (tx: SqliteBatch, record: { id: string }, ...rest: unknown[]) => {
        const error = failure(record.id);
        if (error) throw error;
        return Reflect.apply(value, target, [tx, record, ...rest]) as unknown;
      };
    },
  });
  return {
    writers: { ...projection.writers, pages },
    parked: projection.parked,
    checkpoint: () => projection.checkpoint(),
    applyBatch: (position, work) => projection.applyBatch(position, work),
    beginRebuild: () => projection.beginRebuild(),
    endRebuild: () => projection.endRebuild(),
    close: () => projection.close(),
  };
}
