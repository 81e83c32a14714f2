// The projector as every process that runs one builds it (the projector's own and the all-in-one), and the
// projection stores it writes, which the operator tools open too: MongoDB when MONGODB_URL is set, otherwise the
// read models' SQLite file in DATA_DIR, on the only connection that writes it.
import type { Logger } from "pino";
import type { MongoProjectionStore } from "../../shared/adapters/mongodb/mongo.read-store.ts";
import { SqliteProjectionStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import type { Config } from "../../shared/config/config.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import type { Metrics } from "../../shared/metrics/metrics.port.ts";
import type { CheckpointWatcher } from "../../shared/read-store/checkpoint-watcher.ts";
import type { ProjectionStore } from "../../shared/read-store/read-store.port.ts";
import { Projector, type ProjectionStall, type ProjectorOptions } from "../projector/projector.ts";
import { replayAndSwitch } from "../projector/rebuild.ts";
import { mongo, readModelsFile } from "./read-stores.ts";

export type AnyProjectionStore = SqliteProjectionStore | MongoProjectionStore;

/** The projector's connection to the read models' SQLite file, the only one that writes them. */
export function openEmbeddedProjectionStore(config: Config): SqliteProjectionStore {
  return new SqliteProjectionStore(readModelsFile(config));
}

/** The projector's store: MongoDB when MONGODB_URL is set, otherwise the SQLite file in DATA_DIR. */
export async function openProjectionStore(config: Config): Promise<AnyProjectionStore> {
  if (!config.MONGODB_URL) return openEmbeddedProjectionStore(config);
  const { connectMongo, MongoProjectionStore } = await mongo();
  return MongoProjectionStore.open(await connectMongo(config.MONGODB_URL), { ownsClient: true });
}

/**
 * The live projector's store. On MongoDB, when the active read models were laid out by another
 * MONGO_READ_MODEL_VERSION (a release changed a document's shape), the history is first replayed into the next
 * generation beside them, which keep serving, and readers switch once it has caught up (replayAndSwitch), so a
 * layout change never leaves query nodes on empty read models.
 */
export async function openLiveProjectionStore(
  config: Config,
  replay: { eventStore: EventStore; logger: Logger },
): Promise<AnyProjectionStore> {
  if (!config.MONGODB_URL) return openEmbeddedProjectionStore(config);
  const { connectMongo, MongoProjectionStore } = await mongo();
  const db = await connectMongo(config.MONGODB_URL);
  const outdated = await MongoProjectionStore.activeLayoutOutdated(db);
  if (outdated) {
    replay.logger.warn(
      { event: "read_models.layout_changed", from: outdated.version, generation: outdated.generation },
      "replaying the history into new read models beside the live ones",
    );
    const next = await MongoProjectionStore.openNextGeneration(db);
    await replayAndSwitch({ eventStore: replay.eventStore, store: next, logger: replay.logger });
  }
  return MongoProjectionStore.open(db, { ownsClient: true });
}

/** Runs `use` on the store with its batch type known, whichever adapter it is. */
export function onProjectionStore<R>(store: AnyProjectionStore, use: <Tx>(store: ProjectionStore<Tx>) => R): R {
  return store instanceof SqliteProjectionStore ? use(store) : use(store);
}

/** What a process does with its projector, whichever store it writes. */
export interface RunningProjector {
  readonly checkpoint: number;
  readonly healthy: boolean;
  readonly stall: ProjectionStall | null;
  start(): Promise<void>;
  stop(): Promise<void>;
}

function projectorFor(store: AnyProjectionStore, options: Omit<ProjectorOptions<unknown>, "store">): RunningProjector {
  return onProjectionStore(store, (typed) => new Projector({ ...options, store: typed }));
}

/** The live projector of a process, started: batches as large as PROJECTION_BATCH_BYTES allows. */
export async function startProjector(
  config: Config,
  parts: {
    eventStore: EventStore;
    store: AnyProjectionStore;
    watcher: CheckpointWatcher;
    logger: Logger;
    metrics: Metrics;
  },
): Promise<RunningProjector> {
  const { store, ...options } = parts;
  const projector = projectorFor(store, { ...options, batchBytes: config.PROJECTION_BATCH_BYTES });
  await projector.start();
  return projector;
}
