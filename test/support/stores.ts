// Factories that give contract suites real adapters on fresh storage.
import { join } from "node:path";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import { tempDir } from "./temp-dir.ts";

/** `groupCommit`: as the services open it (concurrent appends share a transaction). */
export async function sqliteEventStoreFactory(
  options: { groupCommit?: boolean } = {},
): Promise<{ store: EventStore; cleanup: () => Promise<void> }> {
  const dir = await tempDir();
  const store = new SqliteEventStore(join(dir.path, "events.sqlite"), { pollMs: 50, ...options });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await dir.remove();
    },
  };
}

/** One SQLite event store file that a test can close and open again, as a restarted process would. */
export async function sqliteEventStoreFile(): Promise<{ open: () => EventStore; remove: () => Promise<void> }> {
  const dir = await tempDir();
  const filename = join(dir.path, "events.sqlite");
  return { open: () => new SqliteEventStore(filename, { pollMs: 50 }), remove: dir.remove };
}
