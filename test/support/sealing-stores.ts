// The sealing event store over the real SQLite event store and key store, in a temporary directory of its own,
// with the raw bytes of both files at hand to show what left the process sealed.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "vitest";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import { SqliteKeyStore } from "../../shared/adapters/sqlite/sqlite.key-store.ts";
import type { KeyEncryptionKey } from "../../shared/erasure/key-encryption-key.ts";
import { SealingEventStore } from "../../shared/erasure/sealing-event-store.ts";
import { tempDir } from "./temp-dir.ts";

export interface SealingStores {
  readonly raw: SqliteEventStore;
  readonly keys: SqliteKeyStore;
  readonly sealed: SealingEventStore;
  /** Every file of the stores' directory, lower-cased, as one string to search for plaintext. */
  rawBytes(): string;
}

/** Opens fresh stores for each test that asks, and closes them after that test. */
export function sealingStoresPerTest(kek: KeyEncryptionKey): () => Promise<SealingStores> {
  const opened: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of opened.splice(0)) await close();
  });
  return async () => {
    const dir = await tempDir();
    const raw = new SqliteEventStore(join(dir.path, "events.sqlite"));
    const keys = new SqliteKeyStore(join(dir.path, "keys.sqlite"), kek);
    const sealed = new SealingEventStore(raw, keys, kek);
    opened.push(async () => {
      await raw.close();
      await keys.close();
      await dir.remove();
    });
    const rawBytes = () =>
      readdirSync(dir.path)
        .map((name) => readFileSync(join(dir.path, name)).toString("latin1").toLowerCase())
        .join("\n");
    return { raw, keys, sealed, rawBytes };
  };
}
