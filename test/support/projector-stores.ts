// The stores a projector test runs against: a real SQLite event store and read-model file in a temporary
// directory, the projection's writer and a reader over the same file, closed together.
import { join } from "node:path";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import { SqliteProjectionStore, SqliteReadStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
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
