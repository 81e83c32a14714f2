import { z } from "zod";
import { scopeSchema } from "../../kernel/scopes.ts";
import type { TokenRecord, TokensView, TokensWriter } from "../../tokens/tokens.view.ts";
import { recordOf, type GenerationRef, type MongoBatch, type MongoModel } from "./mongo-batch.ts";

const tokenSchema = z.object({
  _id: z.string(),
  userId: z.string(),
  name: z.string(),
  scopes: z.array(scopeSchema),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  secretHash: z.string(),
});
type TokenDoc = z.infer<typeof tokenSchema>;

export const tokensModel: MongoModel = {
  collections: ["tokens"],
  indexes: [
    {
      collection: "tokens",
      name: "tokens_secret",
      keys: { secretHash: 1 },
      unique: true,
      serves: "the token a request's secret hashes to (every token request)",
    },
    {
      collection: "tokens",
      name: "tokens_user",
      keys: { userId: 1, createdAt: -1, _id: -1 },
      serves: "GET /tokens: a user's tokens, newest first",
    },
  ],
};

const tokens = (ref: GenerationRef) => ref.current().collection<TokenDoc>("tokens");
const toRecord = (doc: unknown): TokenRecord => recordOf(tokenSchema, doc);

export class MongoTokensWriter implements TokensWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async put(tx: MongoBatch, token: TokenRecord): Promise<void> {
    const { id, ...rest } = token;
    await tokens(this.ref).replaceOne({ _id: id }, rest, { upsert: true, ...tx.options });
  }

  async markUsed(tx: MongoBatch, id: string, usedAt: string): Promise<void> {
    await tokens(this.ref).updateOne({ _id: id }, { $set: { lastUsedAt: usedAt } }, tx.options);
  }

  async markRevoked(tx: MongoBatch, id: string, revokedAt: string): Promise<void> {
    await tokens(this.ref).updateOne({ _id: id }, { $set: { revokedAt } }, tx.options);
  }

  async removeForUser(tx: MongoBatch, userId: string): Promise<void> {
    await tokens(this.ref).deleteMany({ userId }, tx.options);
  }
}

export class MongoTokensView implements TokensView {
  constructor(private readonly ref: GenerationRef) {}

  async get(id: string): Promise<TokenRecord | null> {
    const doc = await tokens(this.ref).findOne({ _id: id });
    return doc ? toRecord(doc) : null;
  }

  async findBySecretHash(secretHash: string): Promise<TokenRecord | null> {
    const doc = await tokens(this.ref).findOne({ secretHash });
    return doc ? toRecord(doc) : null;
  }

  async listForUser(userId: string): Promise<TokenRecord[]> {
    const docs = await tokens(this.ref).find({ userId, revokedAt: null }).sort({ createdAt: -1, _id: -1 }).toArray();
    return docs.map(toRecord);
  }
}
