// What erasure needs. The key store each process that opens the event store opens beside it: DATA_DIR/keys.sqlite
// for the embedded default (and for EventStoreDB without MongoDB), or collections of MongoDB's database when
// MONGODB_URL is set; always behind the bounded key cache, and checked against the log it belongs to
// (bindKeyStore). And the copies of personal data an erasure reaches besides the log: kept sent mail, the audit
// copies of read models, the SQLite files' write-ahead logs.
import { join } from "node:path";
import { SqliteKeyStore } from "../../shared/adapters/sqlite/sqlite.key-store.ts";
import { PRIVATE_DIRECTORY, type Config } from "../../shared/config/config.ts";
import { CachedKeyStore } from "../../shared/erasure/cached-key-store.ts";
import { KEK_FILE, keyEncryptionKeyFor, type KeyEncryptionKey } from "../../shared/erasure/key-encryption-key.ts";
import { bindKeyStore, KEY_STORE_STREAM } from "../../shared/erasure/key-store-binding.ts";
import { KeyStoreError, type KeyStore } from "../../shared/erasure/key-store.port.ts";
import { SealingEventStore } from "../../shared/erasure/sealing-event-store.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import { existsSync, mkdirSync } from "node:fs";
import { OutboxSentMail } from "../../shared/adapters/outbox/outbox.sent-mail.ts";
import { AUDIT_DIRECTORY, AuditReadModelCopies } from "../../shared/adapters/files/audit-read-model-copies.ts";
import { SqliteJournals } from "../../shared/adapters/sqlite/sqlite.journals.ts";
import type { ReadModelCopies } from "../../shared/erasure/read-model-copies.port.ts";
import type { StoreJournals } from "../../shared/erasure/store-journals.port.ts";
import type { SentMail } from "../../shared/mail/sent-mail.port.ts";

/** Keys a process keeps unwrapped in memory at most (32 bytes each, plus their names). */
export const KEY_CACHE_ENTRIES = 10_000;
export const KEY_STORE_FILE = "keys.sqlite";

async function openKeyStore(
  config: Config,
  kek: () => KeyEncryptionKey,
  log: EventStore,
): Promise<{ keys: KeyStore; where: string }> {
  if (config.MONGODB_URL) {
    const [{ MongoClient }, { MongoKeyStore }] = await Promise.all([
      import("mongodb"),
      import("../../shared/adapters/mongodb/mongo.key-store.ts"),
    ]);
    const client = await MongoClient.connect(config.MONGODB_URL);
    const db = client.db();
    try {
      return {
        keys: await MongoKeyStore.open(db, kek(), { close: () => client.close() }),
        where: `MongoDB ${db.databaseName}.erasure_keys`,
      };
    } catch (error) {
      await client.close();
      throw error;
    }
  }
  mkdirSync(config.DATA_DIR, { recursive: true, mode: PRIVATE_DIRECTORY });
  const file = join(config.DATA_DIR, KEY_STORE_FILE);
  // A log that names a key store while the file is missing: say so before a new, empty file takes its place.
  if (!existsSync(file) && (await log.read(KEY_STORE_STREAM)).revision >= 0) {
    throw new KeyStoreError(
      `the key store ${file} is missing while the event log was written with one: restore it (and ${KEK_FILE}, unless ERASURE_KEK is set) from the backup taken with the event log`,
    );
  }
  return { keys: new SqliteKeyStore(file, kek()), where: file };
}

/** What a process needs to seal and to erase: the key store (cached) and the key-encryption key. */
export interface Erasure {
  readonly keys: KeyStore;
  readonly kek: KeyEncryptionKey;
}

/**
 * The event store as every writer and reader of the process uses it: sealing personal data on the way in and
 * opening it on the way out. `recordBinding`: a process that writes the log records which key store it uses. Throws KeyStoreError (a clear message, the process stops) when the key-encryption
 * key or the key store is not the one the log was written with.
 */
export async function sealedEventStore(
  config: Config,
  inner: EventStore,
  options: { recordBinding: boolean },
): Promise<{ eventStore: EventStore; erasure: Erasure }> {
  // A new key-encryption key is made only for a new embedded key store: never beside keys it could not open.
  const embedded = !config.MONGODB_URL && !config.EVENTSTORE_URL;
  const kek = keyEncryptionKeyFor(config, {
    createInDataDir: embedded && !existsSync(join(config.DATA_DIR, KEY_STORE_FILE)),
  });
  const { keys: store, where } = await openKeyStore(config, () => kek, inner);
  const keys = new CachedKeyStore(store, { maxEntries: KEY_CACHE_ENTRIES, ttlMs: config.ERASURE_KEY_CACHE_MS });
  try {
    await bindKeyStore(inner, keys, where, { record: options.recordBinding });
  } catch (error) {
    await keys.close();
    throw error;
  }
  return { eventStore: new SealingEventStore(inner, keys, kek, { closeKeys: true }), erasure: { keys, kek } };
}

/** Kept copies of sent mail: the outbox's files, or none when mail goes out by SMTP. */
export function sentMailFor(config: Config): SentMail | null {
  return config.SMTP_URL ? null : new OutboxSentMail(join(config.DATA_DIR, "outbox"));
}

/** The audit copies `npm run replay -- --until` writes (services/projector/replay.cli.ts), which erasures reach. */
export function readModelCopiesFor(config: Config): ReadModelCopies {
  return new AuditReadModelCopies(join(config.DATA_DIR, AUDIT_DIRECTORY));
}

/** The write-ahead logs of the SQLite files in DATA_DIR: the event store's, the read models' and the key store's, where they are files. */
export function storeJournalsFor(config: Config): StoreJournals {
  const files = [
    ...(config.EVENTSTORE_URL ? [] : ["events.sqlite"]),
    ...(config.MONGODB_URL ? [] : ["read-models.sqlite", KEY_STORE_FILE]),
  ];
  return new SqliteJournals(files.map((file) => join(config.DATA_DIR, file)));
}
