// The key store of the embedded default: its own SQLite file (DATA_DIR/keys.sqlite), never a read model, since
// the log cannot rebuild it: back it up like the event store. Keys are stored wrapped by the key-encryption key.
// `secure_delete` overwrites a destroyed key's bytes in the file's pages, and a TRUNCATE checkpoint after each
// destruction empties the WAL, so no copy of the wrapped key stays in either file. A destroyed key leaves a
// tombstone (its subject and id, no key), so a key the store never held is told apart from an erased one.
import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { z } from "zod";
import type { KeyEncryptionKey } from "../../erasure/key-encryption-key.ts";
import {
  checkSubject,
  KeyStoreError,
  missingKey,
  type DataKey,
  type KeyName,
  type KeyStore,
} from "../../erasure/key-store.port.ts";
import { pooledRandomBytes } from "../../erasure/random-pool.ts";
import { openDatabase, PAGE_CACHE_MB } from "./open-database.ts";

const schema = `
CREATE TABLE IF NOT EXISTS key_store (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  store_id TEXT NOT NULL,
  kek_check BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS data_keys (
  subject TEXT PRIMARY KEY,
  key_id TEXT NOT NULL,
  wrapped BLOB NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS destroyed_keys (
  subject TEXT NOT NULL,
  key_id TEXT NOT NULL,
  PRIMARY KEY (subject, key_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS key_store_rules (
  rule TEXT PRIMARY KEY
) WITHOUT ROWID;`;

/**
 * Set in a store created with tombstones: a key it never held is then an error. A store created before keeps
 * no tombstones for the keys it destroyed then, so a key missing from it reads as destroyed, as it always did.
 */
const MISSING_IS_AN_ERROR = "missing key is an error";

const metaRow = z.object({ store_id: z.string(), kek_check: z.instanceof(Buffer) });
const keyRow = z.object({ key_id: z.string(), wrapped: z.instanceof(Buffer) });
const subjectKeyRow = keyRow.extend({ subject: z.string() });

export class SqliteKeyStore implements KeyStore {
  private readonly db: Database.Database;
  private readonly id: string;
  private readonly statements;
  private readonly destroyKey: (subject: string) => boolean;
  private readonly missingIsAnError: boolean;

  /** Throws KeyStoreError when the file was created with another key-encryption key. */
  constructor(
    private readonly filename: string,
    private readonly kek: KeyEncryptionKey,
  ) {
    this.db = openDatabase(filename, { cacheMb: PAGE_CACHE_MB.log });
    this.db.pragma("secure_delete = ON");
    this.db.exec(schema);
    const created =
      this.db
        .prepare("INSERT OR IGNORE INTO key_store (id, store_id, kek_check) VALUES (1, ?, ?)")
        .run(randomUUID(), kek.checkValue()).changes === 1;
    if (created) this.db.prepare("INSERT OR IGNORE INTO key_store_rules (rule) VALUES (?)").run(MISSING_IS_AN_ERROR);
    this.missingIsAnError =
      this.db.prepare("SELECT 1 FROM key_store_rules WHERE rule = ?").get(MISSING_IS_AN_ERROR) !== undefined;
    const meta = metaRow.parse(this.db.prepare("SELECT store_id, kek_check FROM key_store WHERE id = 1").get());
    try {
      kek.verify(meta.kek_check, filename);
    } catch (error) {
      this.db.close();
      throw error;
    }
    this.id = meta.store_id;
    this.statements = {
      insert: this.db.prepare("INSERT OR IGNORE INTO data_keys (subject, key_id, wrapped) VALUES (?, ?, ?)"),
      select: this.db.prepare("SELECT key_id, wrapped FROM data_keys WHERE subject = ?"),
      selectMany: this.db.prepare(
        "SELECT subject, key_id, wrapped FROM data_keys WHERE subject IN (SELECT value FROM json_each(?))",
      ),
      remove: this.db.prepare("DELETE FROM data_keys WHERE subject = ?"),
      tombstone: this.db.prepare(
        "INSERT OR IGNORE INTO destroyed_keys (subject, key_id) SELECT subject, key_id FROM data_keys WHERE subject = ?",
      ),
      destroyed: this.db.prepare("SELECT 1 FROM destroyed_keys WHERE subject = ? AND key_id = ?"),
    };
    this.destroyKey = this.db.transaction((subject: string): boolean => {
      this.statements.tombstone.run(subject);
      return this.statements.remove.run(subject).changes > 0;
    });
  }

  private read(subject: string): DataKey | null {
    const row = this.statements.select.get(subject);
    if (row === undefined) return null;
    const { key_id: keyId, wrapped } = keyRow.parse(row);
    return { subject, keyId, material: this.kek.unwrap(subject, keyId, wrapped) };
  }

  async activeKey(subject: string): Promise<DataKey> {
    checkSubject(subject);
    const existing = this.read(subject);
    if (existing) return existing;
    const keyId = pooledRandomBytes(9).toString("base64url");
    const material = pooledRandomBytes(32);
    // Another process may create the subject's key at the same instant: the first insert wins, and the loser
    // reads the winner's.
    if (this.statements.insert.run(subject, keyId, this.kek.wrap(subject, keyId, material)).changes === 1)
      return { subject, keyId, material };
    const created = this.read(subject);
    if (!created) throw new KeyStoreError(`the key of ${subject} vanished as it was created`);
    return created;
  }

  async key(subject: string, keyId: string): Promise<DataKey | null> {
    checkSubject(subject);
    const found = this.read(subject);
    if (found && found.keyId === keyId) return found;
    if (!this.missingIsAnError || this.statements.destroyed.get(subject, keyId) !== undefined) return null;
    throw missingKey(subject, this.filename);
  }

  async keysOf(wanted: readonly KeyName[]): Promise<Array<DataKey | null>> {
    const subjects = [...new Set(wanted.map(({ subject }) => subject))];
    for (const subject of subjects) checkSubject(subject);
    const held = new Map<string, DataKey>();
    for (const row of this.statements.selectMany.all(JSON.stringify(subjects))) {
      const { subject, key_id: keyId, wrapped } = subjectKeyRow.parse(row);
      held.set(subject, { subject, keyId, material: this.kek.unwrap(subject, keyId, wrapped) });
    }
    const answers: Array<DataKey | null> = [];
    for (const { subject, keyId } of wanted) {
      const found = held.get(subject);
      // A key not the subject's current one: destroyed, or never held (the rare path, asked one by one).
      answers.push(found && found.keyId === keyId ? found : await this.key(subject, keyId));
    }
    return answers;
  }

  async destroy(subject: string): Promise<void> {
    checkSubject(subject);
    if (!this.destroyKey(subject)) return;
    // Copies the pages (already overwritten by secure_delete) into the file and empties the WAL. A reader of
    // another process holding an older snapshot can make it stop short; the next destruction completes it.
    this.db.pragma("wal_checkpoint(TRUNCATE)");
  }

  async storeId(): Promise<string> {
    return this.id;
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    this.db.pragma("wal_checkpoint(TRUNCATE)");
    this.db.close();
  }

  toString(): string {
    return `SqliteKeyStore(${this.filename})`;
  }
}
