// The all-in-one arrangement's projection in one process, for the benchmarks that time it: SQLite event store
// and read models in a directory, a projector woken on commit, and a watcher that says when a position is read.
import { join } from "node:path";
import { pino } from "pino";
import { Projector } from "../services/projector/projector.ts";
import { SqliteEventStore } from "../shared/adapters/sqlite/sqlite.event-store.ts";
import { SqliteReadStore, SqliteProjectionStore } from "../shared/adapters/sqlite/sqlite.read-store.ts";
import { CheckpointWatcher } from "../shared/read-store/checkpoint-watcher.ts";

export interface LiveProjection {
  readonly eventStore: SqliteEventStore;
  readonly readStore: SqliteReadStore;
  readonly watcher: CheckpointWatcher;
  /** Stops the projector and closes every store. */
  readonly stop: () => Promise<void>;
}

/** Files `<name>-events.sqlite` and `<name>-read.sqlite` in `dir`; the projector is running on return. */
export async function startLiveProjection(dir: string, name: string): Promise<LiveProjection> {
  const eventStore = new SqliteEventStore(join(dir, `${name}-events.sqlite`));
  const readStore = new SqliteReadStore(join(dir, `${name}-read.sqlite`));
  const projectionStore = new SqliteProjectionStore(join(dir, `${name}-read.sqlite`));
  const watcher = new CheckpointWatcher(readStore, { projectorInProcess: true });
  const projector = new Projector({ eventStore, store: projectionStore, logger: pino({ level: "silent" }), watcher });
  await projector.start();
  return {
    eventStore,
    readStore,
    watcher,
    async stop() {
      await projector.stop();
      watcher.close();
      await Promise.all([projectionStore.close(), readStore.close(), eventStore.close()]);
    },
  };
}
