// The stores each process opens: the embedded default (event store and read models as SQLite files in
// DATA_DIR, image bytes as files under it) or, where EVENTSTORE_URL / MONGODB_URL are set, EventStoreDB for the
// event store and MongoDB for the read models and (in GridFS) the image bytes. The clients of EventStoreDB and
// MongoDB are loaded only when their URL is set: together they hold about 13 MB of live heap and 40 MB of
// resident memory that an embedded process would carry for nothing (docs/operations/embedded.md, "Memory").
import { tracedEventStore } from "../shared/event-store/traced-event-store.ts";
import { SqliteOAuthStore } from "../shared/adapters/sqlite/oauth-store.sqlite.ts";
import type { OAuthStore } from "../shared/oauth/oauth-store.port.ts";
import { chmodSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { type Config, PRIVATE_DIRECTORY } from "../shared/config/config.ts";
import { join } from "node:path";
import { SqliteEventStore } from "../shared/adapters/sqlite/sqlite.event-store.ts";
import { SqliteProjectionStore, SqliteReadStore } from "../shared/adapters/sqlite/sqlite.read-store.ts";
import type { RankParams } from "../shared/pages/search-ranking.ts";
import type { WorkerPool } from "../shared/workers/worker-pool.ts";
import { FilesBlobReader, FilesBlobStore } from "../shared/adapters/files/files.blob-store.ts";
import type { BlobReader, BlobStore } from "../shared/blobs/blob-store.port.ts";
import type { EventStore } from "../shared/event-store/event-store.port.ts";
import type { Metrics } from "../shared/metrics/metrics.port.ts";
import type { ProjectionStore, ReadStore } from "../shared/read-store/read-store.port.ts";
import { Projector, type ProjectorOptions, type ProjectionStall } from "./projector/projector.ts";
import { replayAndSwitch } from "./projector/rebuild.ts";
import type { Logger } from "pino";
import type { MongoProjectionStore } from "../shared/adapters/mongodb/mongo.read-store.ts";
import { SqliteWebhookDeliveries } from "../shared/adapters/sqlite/webhook-deliveries.sqlite.ts";
import type { WebhookDeliveries } from "../shared/webhooks/webhook-deliveries.port.ts";
import { sealedEventStore, type Erasure } from "./key-store-wiring.ts";

const PRIVATE_FILE = 0o600;

/**
 * Makes DATA_DIR and what lies directly in it the service user's alone, also when they were made before (by an
 * older version, or by hand under a permissive umask): directories 0700, files 0600. Entries another user owns
 * are left as they are (changing them would fail); the directories' 0700 already keeps others out of them.
 */
function secureDataDir(config: Config): void {
  mkdirSync(config.DATA_DIR, { recursive: true, mode: PRIVATE_DIRECTORY });
  const uid = process.getuid?.();
  const secure = (path: string, mode: number) => {
    const info = statSync(path);
    if ((uid === undefined || info.uid === uid) && (info.mode & 0o777) !== mode) chmodSync(path, mode);
  };
  secure(config.DATA_DIR, PRIVATE_DIRECTORY);
  for (const entry of readdirSync(config.DATA_DIR, { withFileTypes: true })) {
    if (entry.isDirectory()) secure(join(config.DATA_DIR, entry.name), PRIVATE_DIRECTORY);
    else if (entry.isFile()) secure(join(config.DATA_DIR, entry.name), PRIVATE_FILE);
  }
}

/**
 * The command side's store; opening it secures DATA_DIR first (see secureDataDir). Group commit: the services'
 * appends come from concurrent requests.
 */
function openEmbeddedEventStore(config: Config): SqliteEventStore {
  secureDataDir(config);
  return new SqliteEventStore(join(config.DATA_DIR, "events.sqlite"), { groupCommit: true });
}

const readModelsFile = (config: Config): string => {
  mkdirSync(config.DATA_DIR, { recursive: true, mode: PRIVATE_DIRECTORY });
  return join(config.DATA_DIR, "read-models.sqlite");
};

/** Each caller gets its own connection: the projector writes through one, the APIs read through another. */
/**
 * A reader's connection to the read models' file. With `pool`, searches are ranked in its threads over their own
 * connections (page-search-rank.ts), as their caller's task, never on the event loop.
 */
function openEmbeddedReadStore(
  config: Config,
  metrics?: Pick<Metrics, "cache">,
  pool?: Pick<WorkerPool, "run">,
): SqliteReadStore {
  const file = readModelsFile(config);
  return new SqliteReadStore(file, {
    ...(metrics ? { accessContextCache: metrics.cache("access_context") } : {}),
    ...(pool
      ? { searchRanking: async (params: RankParams) => (await pool.run("rankSearch", { file, params })).ranked }
      : {}),
  });
}

/** The projector's connection, the only one that writes read models. */
export function openEmbeddedProjectionStore(config: Config): SqliteProjectionStore {
  return new SqliteProjectionStore(readModelsFile(config));
}

const blobsDirectory = (config: Config): string => join(config.DATA_DIR, "blobs");

/** Image bytes as files in DATA_DIR/blobs, for the command API (the only writer). */
function openEmbeddedBlobStore(config: Config): Promise<FilesBlobStore> {
  return FilesBlobStore.create(blobsDirectory(config));
}

/** The same files, read-only: a query node never creates or removes one. */
function openEmbeddedBlobReader(config: Config): FilesBlobReader {
  return new FilesBlobReader(blobsDirectory(config));
}

const mongo = () => import("../shared/adapters/mongodb/mongo.read-store.ts");

/** GridFS in the database MONGODB_URL names, on a client of its own that the store closes. */
async function openGridFs(url: string): Promise<BlobStore & BlobReader & { close(): Promise<void> }> {
  const [{ MongoClient }, { GridFsBlobStore }] = await Promise.all([
    import("mongodb"),
    import("../shared/adapters/mongodb/gridfs.blob-store.ts"),
  ]);
  const client = await MongoClient.connect(url);
  return new GridFsBlobStore(client.db(), client);
}

async function connectEventStoreDb(url: string, namespace: string | undefined): Promise<EventStore> {
  const { EventStoreDbEventStore } = await import("../shared/adapters/eventstoredb/eventstoredb.event-store.ts");
  return EventStoreDbEventStore.connect(url, namespace ? { namespace } : {});
}

/**
 * EventStoreDB when EVENTSTORE_URL is set, otherwise the SQLite file in DATA_DIR; sealing personal data on its
 * way in and opening it on its way out, with the key store beside it (services/key-store-wiring.ts).
 */
export async function openSealedEventStore(
  config: Config,
  options: { recordBinding: boolean } = { recordBinding: true },
): Promise<{ eventStore: EventStore; erasure: Erasure }> {
  secureDataDir(config);
  const url = config.EVENTSTORE_URL;
  const inner = url ? await connectEventStoreDb(url, config.EVENTSTORE_NAMESPACE) : openEmbeddedEventStore(config);
  try {
    const sealed = await sealedEventStore(config, inner, options);
    return { ...sealed, eventStore: tracedEventStore(sealed.eventStore) };
  } catch (error) {
    await inner.close();
    throw error;
  }
}

/**
 * The event store of a process that erases nothing itself (see openSealedEventStore). `recordBinding` for the
 * notifier, which writes the log; the projector and the operator tools only check the key store against it.
 */
export async function openEventStore(
  config: Config,
  options: { recordBinding: boolean } = { recordBinding: false },
): Promise<EventStore> {
  return (await openSealedEventStore(config, options)).eventStore;
}

/** Image bytes: GridFS in MONGODB_URL's database when it is set, otherwise files in DATA_DIR/blobs. */
export async function openBlobStore(config: Config): Promise<BlobStore> {
  if (!config.MONGODB_URL) return openEmbeddedBlobStore(config);
  return openGridFs(config.MONGODB_URL);
}

/** What a query node reads image bytes from; it never writes them. */
export async function openBlobReader(config: Config): Promise<BlobReader & { close(): Promise<void> }> {
  if (!config.MONGODB_URL) return Object.assign(openEmbeddedBlobReader(config), { close: async () => undefined });
  return openGridFs(config.MONGODB_URL);
}

/** The read models a process reads: MongoDB when MONGODB_URL is set, otherwise the SQLite file in DATA_DIR. */
/** `pool`: where the SQLite read models rank searches (MongoDB ranks them on its own server). */
export async function openReadStore(
  config: Config,
  metrics?: Pick<Metrics, "cache">,
  pool?: Pick<WorkerPool, "run">,
): Promise<ReadStore> {
  if (!config.MONGODB_URL) return openEmbeddedReadStore(config, metrics, pool);
  const options = metrics ? { accessContextCache: metrics.cache("access_context") } : {};
  const { connectMongo, MongoReadStore } = await mongo();
  return MongoReadStore.open(await connectMongo(config.MONGODB_URL), { ownsClient: true, ...options });
}

export type AnyProjectionStore = SqliteProjectionStore | MongoProjectionStore;

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

export function projectorFor(
  store: AnyProjectionStore,
  options: Omit<ProjectorOptions<unknown>, "store">,
): RunningProjector {
  return onProjectionStore(store, (typed) => new Projector({ ...options, store: typed }));
}

/** The webhook delivery log: MongoDB when MONGODB_URL is set, otherwise DATA_DIR/webhooks.sqlite (kept across read-model rebuilds). */
/** The authorization server's store: DATA_DIR/oauth.sqlite, or a MongoDB collection beside the read models. */
export async function openOAuthStore(config: Config): Promise<OAuthStore> {
  if (!config.MONGODB_URL) {
    mkdirSync(config.DATA_DIR, { recursive: true, mode: PRIVATE_DIRECTORY });
    return new SqliteOAuthStore(join(config.DATA_DIR, "oauth.sqlite"));
  }
  const [{ connectMongo }, { MongoOAuthStore }] = await Promise.all([
    mongo(),
    import("../shared/adapters/mongodb/oauth-store.mongo.ts"),
  ]);
  return MongoOAuthStore.open(await connectMongo(config.MONGODB_URL), { ownsClient: true });
}

export async function openWebhookDeliveries(config: Config): Promise<WebhookDeliveries> {
  if (!config.MONGODB_URL) {
    mkdirSync(config.DATA_DIR, { recursive: true, mode: PRIVATE_DIRECTORY });
    return new SqliteWebhookDeliveries(join(config.DATA_DIR, "webhooks.sqlite"));
  }
  const [{ connectMongo }, { MongoWebhookDeliveries }] = await Promise.all([
    mongo(),
    import("../shared/adapters/mongodb/webhook-deliveries.mongo.ts"),
  ]);
  return MongoWebhookDeliveries.open(await connectMongo(config.MONGODB_URL), { ownsClient: true });
}
