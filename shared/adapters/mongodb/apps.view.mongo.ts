import { z } from "zod";
import type { AppRecord, AppsView, AppsWriter } from "../../apps/apps.view.ts";
import { scopeSchema } from "../../kernel/scopes.ts";
import { recordOf, type GenerationRef, type MongoBatch, type MongoModel } from "./mongo-batch.ts";

const appSchema = z.object({
  _id: z.string(),
  userId: z.string(),
  clientId: z.string(),
  name: z.string(),
  clientUri: z.string().nullable(),
  redirectHost: z.string(),
  scopes: z.array(scopeSchema),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
type AppDoc = z.infer<typeof appSchema>;

export const appsModel: MongoModel = {
  collections: ["apps"],
  indexes: [
    {
      collection: "apps",
      name: "apps_user",
      keys: { userId: 1, createdAt: -1, _id: -1 },
      serves: "GET /apps: a user's authorized apps, newest first",
    },
  ],
};

const apps = (ref: GenerationRef) => ref.current().collection<AppDoc>("apps");
const toRecord = (doc: unknown): AppRecord => recordOf(appSchema, doc);

export class MongoAppsWriter implements AppsWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async put(tx: MongoBatch, app: AppRecord): Promise<void> {
    const { id, ...rest } = app;
    await apps(this.ref).replaceOne({ _id: id }, rest, { upsert: true, ...tx.options });
  }

  async markRevoked(tx: MongoBatch, id: string, revokedAt: string): Promise<void> {
    await apps(this.ref).updateOne({ _id: id }, { $set: { revokedAt } }, tx.options);
  }

  async removeForUser(tx: MongoBatch, userId: string): Promise<void> {
    await apps(this.ref).deleteMany({ userId }, tx.options);
  }
}

export class MongoAppsView implements AppsView {
  constructor(private readonly ref: GenerationRef) {}

  async get(id: string): Promise<AppRecord | null> {
    const doc = await apps(this.ref).findOne({ _id: id });
    return doc ? toRecord(doc) : null;
  }

  async listForUser(userId: string): Promise<AppRecord[]> {
    const docs = await apps(this.ref).find({ userId, revokedAt: null }).sort({ createdAt: -1, _id: -1 }).toArray();
    return docs.map(toRecord);
  }
}
