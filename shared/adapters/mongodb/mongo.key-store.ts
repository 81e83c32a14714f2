// The key store of the production stack: collections of their own (`erasure_keys`, `erasure_key_store`) beside
// the read models but outside their generations, since the log cannot rebuild them: a replay never drops them,
// and they are backed up like the event store. Keys are stored wrapped by the key-encryption key. A destroyed
// key's document is deleted, leaving a tombstone (subject and key id) in `erasure_destroyed_keys`; WiredTiger
// may keep its bytes in free space until the collection is compacted (docs/operations/keys-and-backups.md), which the
// wrapping makes useless without the key-encryption key.
import { randomBytes, randomUUID } from "node:crypto";
import { Binary, MongoServerError, type Collection, type Db } from "mongodb";
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

type KeyDoc = { _id: string; keyId: string; wrapped: Binary };
/** A destroyed key's tombstone: its subject and id, no key. */
type TombstoneDoc = { _id: { subject: string; keyId: string }; destroyed: true };
/** `missingIsAnError`: set in a store created with tombstones (one created before has none for its old erasures). */
type StoreDoc = { _id: "store"; storeId: string; kekCheck: Binary; missingIsAnError?: boolean };

const keyDoc = z.object({ keyId: z.string(), wrapped: z.instanceof(Binary) });
const storeDoc = z.object({
  storeId: z.string(),
  kekCheck: z.instanceof(Binary),
  missingIsAnError: z.boolean().optional(),
});

const isDuplicateKey = (error: unknown): boolean => error instanceof MongoServerError && error.code === 11000;

export class MongoKeyStore implements KeyStore {
  private constructor(
    private readonly keys: Collection<KeyDoc>,
    private readonly tombstones: Collection<TombstoneDoc>,
    private readonly kek: KeyEncryptionKey,
    private readonly stored: { readonly id: string; readonly missingIsAnError: boolean; readonly where: string },
    private readonly closeClient: () => Promise<void>,
  ) {}

  /** Throws KeyStoreError when the collections were created with another key-encryption key. */
  static async open(
    db: Db,
    kek: KeyEncryptionKey,
    options: { close?: () => Promise<void> } = {},
  ): Promise<MongoKeyStore> {
    const meta = db.collection<StoreDoc>("erasure_key_store");
    await meta
      .updateOne(
        { _id: "store" },
        { $setOnInsert: { storeId: randomUUID(), kekCheck: new Binary(kek.checkValue()), missingIsAnError: true } },
        { upsert: true },
      )
      .catch((error: unknown) => {
        if (!isDuplicateKey(error)) throw error;
      });
    const stored = storeDoc.parse(await meta.findOne({ _id: "store" }));
    const where = `${db.databaseName}.erasure_keys`;
    kek.verify(Buffer.from(stored.kekCheck.buffer), `in ${db.databaseName}.erasure_key_store`);
    return new MongoKeyStore(
      db.collection<KeyDoc>("erasure_keys"),
      db.collection<TombstoneDoc>("erasure_destroyed_keys"),
      kek,
      { id: stored.storeId, missingIsAnError: stored.missingIsAnError === true, where },
      options.close ?? (async () => undefined),
    );
  }

  private async read(subject: string): Promise<DataKey | null> {
    const found = await this.keys.findOne({ _id: subject });
    if (!found) return null;
    const { keyId, wrapped } = keyDoc.parse(found);
    return { subject, keyId, material: this.kek.unwrap(subject, keyId, Buffer.from(wrapped.buffer)) };
  }

  async activeKey(subject: string): Promise<DataKey> {
    checkSubject(subject);
    const existing = await this.read(subject);
    if (existing) return existing;
    const keyId = randomBytes(9).toString("base64url");
    const material = randomBytes(32);
    // Two processes creating the subject's key at once: the first insert wins, and the loser reads the winner's.
    const inserted = await this.keys
      .insertOne({ _id: subject, keyId, wrapped: new Binary(this.kek.wrap(subject, keyId, material)) })
      .then(
        () => true,
        (error: unknown) => {
          if (!isDuplicateKey(error)) throw error;
          return false;
        },
      );
    if (inserted) return { subject, keyId, material };
    const created = await this.read(subject);
    if (!created) throw new KeyStoreError(`the key of ${subject} vanished as it was created`);
    return created;
  }

  async key(subject: string, keyId: string): Promise<DataKey | null> {
    checkSubject(subject);
    const found = await this.read(subject);
    if (found && found.keyId === keyId) return found;
    if (
      !this.stored.missingIsAnError ||
      (await this.tombstones.countDocuments({ _id: { subject, keyId } }, { limit: 1 })) > 0
    )
      return null;
    throw missingKey(subject, this.stored.where);
  }

  async keysOf(wanted: readonly KeyName[]): Promise<Array<DataKey | null>> {
    const subjects = [...new Set(wanted.map(({ subject }) => subject))];
    for (const subject of subjects) checkSubject(subject);
    const held = new Map<string, DataKey>();
    for (const doc of await this.keys.find({ _id: { $in: subjects } }).toArray()) {
      const { keyId, wrapped } = keyDoc.parse(doc);
      held.set(doc._id, {
        subject: doc._id,
        keyId,
        material: this.kek.unwrap(doc._id, keyId, Buffer.from(wrapped.buffer)),
      });
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
    const found = await this.keys.findOne({ _id: subject }, { projection: { keyId: 1 } });
    if (!found) return;
    // The tombstone first: a reader never finds the key gone without it.
    await this.tombstones.updateOne(
      { _id: { subject, keyId: found.keyId } },
      { $setOnInsert: { destroyed: true } },
      { upsert: true },
    );
    await this.keys.deleteOne({ _id: subject, keyId: found.keyId });
  }

  async storeId(): Promise<string> {
    return this.stored.id;
  }

  async close(): Promise<void> {
    await this.closeClient();
  }
}
