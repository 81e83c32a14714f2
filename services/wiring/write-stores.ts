// The stores of the write side, which the command API (and each process that appends or follows the log) opens:
// the event store, sealed with the key store beside it (erasure.ts), the image bytes it writes, and the
// authorization server's store. The embedded default keeps them in DATA_DIR; EventStoreDB holds the event store
// where EVENTSTORE_URL is set and MongoDB the rest where MONGODB_URL is set, their clients loaded only then.
import { chmodSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { FilesBlobStore } from "../../shared/adapters/files/files.blob-store.ts";
import { SqliteOAuthStore } from "../../shared/adapters/sqlite/oauth-store.sqlite.ts";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import type { BlobStore } from "../../shared/blobs/blob-store.port.ts";
import { PRIVATE_DIRECTORY, type Config } from "../../shared/config/config.ts";
import { countedAppends } from "../../shared/event-store/counted-appends.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import { tracedEventStore } from "../../shared/event-store/traced-event-store.ts";
import type { Metrics } from "../../shared/metrics/metrics.port.ts";
import type { OAuthStore } from "../../shared/oauth/oauth-store.port.ts";
import { sealedEventStore, type Erasure } from "./erasure.ts";
import { blobsDirectory, dataDir, mongo, openGridFs } from "./read-stores.ts";

const PRIVATE_FILE = 0o600;

/**
 * Makes DATA_DIR and what lies directly in it the service user's alone, also when they were made before (by an
 * older version, or by hand under a permissive umask): directories 0700, files 0600. Entries another user owns
 * are left as they are (changing them would fail); the directories' 0700 already keeps others out of them.
 */
function secureDataDir(config: Config): void {
  dataDir(config);
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

async function connectEventStoreDb(url: string, namespace: string | undefined): Promise<EventStore> {
  const { EventStoreDbEventStore } = await import("../../shared/adapters/eventstoredb/eventstoredb.event-store.ts");
  return EventStoreDbEventStore.connect(url, namespace ? { namespace } : {});
}

/**
 * EventStoreDB when EVENTSTORE_URL is set, otherwise the SQLite file in DATA_DIR (group commit: the services'
 * appends come from concurrent requests); sealing personal data on its way in and opening it on its way out, with
 * the key store beside it (erasure.ts). Opening it secures DATA_DIR first (see secureDataDir).
 */
export async function openSealedEventStore(
  config: Config,
  options: { recordBinding: boolean } = { recordBinding: true },
): Promise<{ eventStore: EventStore; erasure: Erasure }> {
  secureDataDir(config);
  const url = config.EVENTSTORE_URL;
  const inner = url
    ? await connectEventStoreDb(url, config.EVENTSTORE_NAMESPACE)
    : new SqliteEventStore(join(config.DATA_DIR, "events.sqlite"), { groupCommit: true });
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

/** The event store as the process's writers use it: counting what they append when the process has metrics. */
export function appendingStore(eventStore: EventStore, metrics?: Metrics): EventStore {
  return metrics ? countedAppends(eventStore, metrics) : eventStore;
}

/** Image bytes: GridFS in MONGODB_URL's database when it is set, otherwise files in DATA_DIR/blobs. */
export async function openBlobStore(config: Config): Promise<BlobStore> {
  if (!config.MONGODB_URL) return FilesBlobStore.create(blobsDirectory(config));
  return openGridFs(config.MONGODB_URL);
}

/** The authorization server's store: DATA_DIR/oauth.sqlite, or a MongoDB collection beside the read models. */
export async function openOAuthStore(config: Config): Promise<OAuthStore> {
  if (!config.MONGODB_URL) return new SqliteOAuthStore(join(dataDir(config), "oauth.sqlite"));
  const [{ connectMongo }, { MongoOAuthStore }] = await Promise.all([
    mongo(),
    import("../../shared/adapters/mongodb/oauth-store.mongo.ts"),
  ]);
  return MongoOAuthStore.open(await connectMongo(config.MONGODB_URL), { ownsClient: true });
}
