// The authorization server's store as one MongoDB collection (`oauth_entries`) outside the read-model
// generations: not rebuilt from the log. Entries are keyed by model and the hash of their id; MongoDB's TTL
// monitor removes expired ones, and reads ignore those it has not reached yet.
import type { Collection, Db } from "mongodb";
import { z } from "zod";
import type { OAuthEntry, OAuthStore } from "../../oauth/oauth-store.port.ts";

interface EntryDoc {
  _id: string;
  model: string;
  payload: Record<string, unknown>;
  grantId: string | null;
  uidHash: string | null;
  expiresAt: Date | null;
}

const docSchema = z.object({
  _id: z.string(),
  payload: z.record(z.string(), z.unknown()),
  grantId: z.string().nullable(),
  uidHash: z.string().nullable(),
  expiresAt: z.date().nullable(),
});

const oauthStoreIndexes = [
  {
    name: "oauth_entries_grant",
    keys: { grantId: 1 },
    options: { partialFilterExpression: { grantId: { $type: "string" } } },
    serves: "an app's codes and tokens, removed when it is revoked",
  },
  {
    name: "oauth_entries_uid",
    keys: { uidHash: 1 },
    options: { partialFilterExpression: { uidHash: { $type: "string" } } },
    serves: "a sign-in session by its uid",
  },
  {
    name: "oauth_entries_expiry",
    keys: { expiresAt: 1 },
    options: { expireAfterSeconds: 0 },
    serves: "expired entries, removed by MongoDB's TTL monitor",
  },
] as const;

const keyOf = (model: string, idHash: string): string => `${model}:${idHash}`;
const toEntry = (doc: unknown): OAuthEntry => {
  const parsed = docSchema.parse(doc);
  return {
    payload: parsed.payload,
    grantId: parsed.grantId,
    uidHash: parsed.uidHash,
    expiresAt: parsed.expiresAt ? parsed.expiresAt.getTime() : null,
  };
};
const live = (now: number) => ({ $or: [{ expiresAt: null }, { expiresAt: { $gt: new Date(now) } }] });

export class MongoOAuthStore implements OAuthStore {
  private readonly entries: Collection<EntryDoc>;

  private constructor(
    private readonly db: Db,
    private readonly ownsClient: boolean,
  ) {
    this.entries = db.collection<EntryDoc>("oauth_entries");
  }

  static async open(db: Db, options: { ownsClient?: boolean } = {}): Promise<MongoOAuthStore> {
    const store = new MongoOAuthStore(db, options.ownsClient ?? false);
    for (const index of oauthStoreIndexes)
      await store.entries.createIndex(index.keys, { name: index.name, ...index.options });
    return store;
  }

  async put(model: string, idHash: string, entry: OAuthEntry): Promise<void> {
    const doc: Omit<EntryDoc, "_id"> = {
      model,
      payload: entry.payload,
      grantId: entry.grantId,
      uidHash: entry.uidHash,
      expiresAt: entry.expiresAt === null ? null : new Date(entry.expiresAt),
    };
    await this.entries.replaceOne({ _id: keyOf(model, idHash) }, doc, { upsert: true });
  }

  async get(model: string, idHash: string, now: number): Promise<OAuthEntry | null> {
    const doc = await this.entries.findOne({ _id: keyOf(model, idHash), ...live(now) });
    return doc ? toEntry(doc) : null;
  }

  async findByUid(uidHash: string, now: number): Promise<{ idHash: string; entry: OAuthEntry } | null> {
    const doc = await this.entries.findOne({ uidHash, ...live(now) });
    if (!doc) return null;
    return { idHash: doc._id.slice(doc._id.indexOf(":") + 1), entry: toEntry(doc) };
  }

  async consume(model: string, idHash: string, consumedAt: number): Promise<void> {
    await this.entries.updateOne({ _id: keyOf(model, idHash) }, { $set: { "payload.consumed": consumedAt } });
  }

  async remove(model: string, idHash: string): Promise<void> {
    await this.entries.deleteOne({ _id: keyOf(model, idHash) });
  }

  async removeGrant(grantId: string): Promise<void> {
    await this.entries.deleteMany({ grantId });
  }

  async sweep(now: number, limit: number): Promise<number> {
    const expired = await this.entries
      .find({ expiresAt: { $ne: null, $lte: new Date(now) } }, { projection: { _id: 1 }, limit })
      .toArray();
    if (expired.length === 0) return 0;
    const { deletedCount } = await this.entries.deleteMany({ _id: { $in: expired.map((doc) => doc._id) } });
    return deletedCount;
  }

  async close(): Promise<void> {
    if (this.ownsClient) await this.db.client.close();
  }
}
