// The stores of the read side, which a query node opens and the other processes open too: the read models, the
// image bytes read-only, and the webhook delivery log. The embedded default keeps them as SQLite files and
// plain files in DATA_DIR; where MONGODB_URL is set they are MongoDB collections and (in GridFS) its files. The
// MongoDB client is loaded only when its URL is set: an embedded process would carry its heap for nothing
// (docs/operations/embedded.md, "Memory"). Nothing here reaches the event store or the command side.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { FilesBlobReader } from "../../shared/adapters/files/files.blob-store.ts";
import { SqliteReadStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import { SqliteWebhookDeliveries } from "../../shared/adapters/sqlite/webhook-deliveries.sqlite.ts";
import type { BlobReader, BlobStore } from "../../shared/blobs/blob-store.port.ts";
import { PRIVATE_DIRECTORY, type Config } from "../../shared/config/config.ts";
import type { Metrics } from "../../shared/metrics/metrics.port.ts";
import type { RankParams } from "../../shared/pages/search-ranking.ts";
import type { ReadStore } from "../../shared/read-store/read-store.port.ts";
import type { WebhookDeliveries } from "../../shared/webhooks/webhook-deliveries.port.ts";
import type { WorkerPool } from "../../shared/workers/worker-pool.ts";

/** DATA_DIR, made the service user's alone when it is new. */
export function dataDir(config: Config): string {
  mkdirSync(config.DATA_DIR, { recursive: true, mode: PRIVATE_DIRECTORY });
  return config.DATA_DIR;
}

/** The read models' SQLite file: the projector writes through one connection, the APIs read through others. */
export const readModelsFile = (config: Config): string => join(dataDir(config), "read-models.sqlite");

/** Where the embedded image bytes lie: the command API writes them, every reader reads them. */
export const blobsDirectory = (config: Config): string => join(config.DATA_DIR, "blobs");

/** The MongoDB read-store module (and its connection helper), loaded when MONGODB_URL is set. */
export const mongo = () => import("../../shared/adapters/mongodb/mongo.read-store.ts");

/** GridFS in the database MONGODB_URL names, on a client of its own that the store closes. */
export async function openGridFs(url: string): Promise<BlobStore & BlobReader & { close(): Promise<void> }> {
  const [{ MongoClient }, { GridFsBlobStore }] = await Promise.all([
    import("mongodb"),
    import("../../shared/adapters/mongodb/gridfs.blob-store.ts"),
  ]);
  const client = await MongoClient.connect(url);
  return new GridFsBlobStore(client.db(), client);
}

/** What a query node reads image bytes from; it never writes them. */
export async function openBlobReader(config: Config): Promise<BlobReader & { close(): Promise<void> }> {
  if (!config.MONGODB_URL)
    return Object.assign(new FilesBlobReader(blobsDirectory(config)), { close: async () => undefined });
  return openGridFs(config.MONGODB_URL);
}

/**
 * The read models a process reads: MongoDB when MONGODB_URL is set, otherwise the SQLite file in DATA_DIR, on a
 * connection of the caller's own. With `pool`, the SQLite read models rank searches in its threads over their own
 * connections (page-search-rank.ts), as their caller's task, never on the event loop; MongoDB ranks them on its
 * own server.
 */
export async function openReadStore(
  config: Config,
  metrics?: Pick<Metrics, "cache">,
  pool?: Pick<WorkerPool, "run">,
): Promise<ReadStore> {
  const cache = metrics ? { accessContextCache: metrics.cache("access_context") } : {};
  if (!config.MONGODB_URL) {
    const file = readModelsFile(config);
    return new SqliteReadStore(file, {
      ...cache,
      ...(pool
        ? { searchRanking: async (params: RankParams) => (await pool.run("rankSearch", { file, params })).ranked }
        : {}),
    });
  }
  const { connectMongo, MongoReadStore } = await mongo();
  return MongoReadStore.open(await connectMongo(config.MONGODB_URL), { ownsClient: true, ...cache });
}

/** The webhook delivery log: MongoDB when MONGODB_URL is set, otherwise DATA_DIR/webhooks.sqlite (kept across read-model rebuilds). */
export async function openWebhookDeliveries(config: Config): Promise<WebhookDeliveries> {
  if (!config.MONGODB_URL) return new SqliteWebhookDeliveries(join(dataDir(config), "webhooks.sqlite"));
  const [{ connectMongo }, { MongoWebhookDeliveries }] = await Promise.all([
    mongo(),
    import("../../shared/adapters/mongodb/webhook-deliveries.mongo.ts"),
  ]);
  return MongoWebhookDeliveries.open(await connectMongo(config.MONGODB_URL), { ownsClient: true });
}
