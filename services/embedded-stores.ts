// The embedded default (DESIGN.md §2): event store and read models as SQLite files in DATA_DIR.
import { mkdirSync } from "node:fs";
import { PRIVATE_DIRECTORY } from "../shared/config/config.ts";
import { join } from "node:path";
import type { Config } from "../shared/config/config.ts";
import { SqliteEventStore } from "../shared/adapters/sqlite/sqlite.event-store.ts";
import { SqliteProjectionStore, SqliteReadStore } from "../shared/adapters/sqlite/sqlite.read-store.ts";
import { FilesBlobReader, FilesBlobStore } from "../shared/adapters/files/files.blob-store.ts";
import type { Metrics } from "../shared/metrics/metrics.port.ts";

export function openEmbeddedEventStore(config: Config): SqliteEventStore {
  mkdirSync(config.DATA_DIR, { recursive: true, mode: PRIVATE_DIRECTORY });
  return new SqliteEventStore(join(config.DATA_DIR, "events.sqlite"));
}

const readModelsFile = (config: Config): string => {
  mkdirSync(config.DATA_DIR, { recursive: true, mode: PRIVATE_DIRECTORY });
  return join(config.DATA_DIR, "read-models.sqlite");
};

/** Each caller gets its own connection: the projector writes through one, the APIs read through another. */
export function openEmbeddedReadStore(config: Config, metrics?: Pick<Metrics, "cache">): SqliteReadStore {
  return new SqliteReadStore(readModelsFile(config), metrics ? { accessContextCache: metrics.cache("access_context") } : {});
}

/** The projector's connection, the only one that writes read models. */
export function openEmbeddedProjectionStore(config: Config): SqliteProjectionStore {
  return new SqliteProjectionStore(readModelsFile(config));
}

const blobsDirectory = (config: Config): string => join(config.DATA_DIR, "blobs");

/** Image bytes as files in DATA_DIR/blobs, for the command API (the only writer). */
export function openEmbeddedBlobStore(config: Config): Promise<FilesBlobStore> {
  return FilesBlobStore.create(blobsDirectory(config));
}

/** The same files, read-only: a query node never creates or removes one. */
export function openEmbeddedBlobReader(config: Config): FilesBlobReader {
  return new FilesBlobReader(blobsDirectory(config));
}
