import type { UserRecord, UsersView, UsersWriter } from "../../users/users.view.ts";
import { recordOf, type GenerationRef, type MongoBatch, type MongoModel } from "./mongo-batch.ts";
import { z } from "zod";

const userSchema = z.object({
  _id: z.string(),
  email: z.string(),
  name: z.string(),
  image: z.string().nullable(),
  createdAt: z.string(),
});
type UserDoc = z.infer<typeof userSchema>;

export const usersModel: MongoModel = {
  collections: ["users"],
  indexes: [
    {
      collection: "users",
      name: "users_email",
      keys: { email: 1 },
      unique: true,
      serves: "a user by email (registration, invitations)",
    },
  ],
};

const toRecord = (doc: unknown): UserRecord => recordOf(userSchema, doc);

const users = (ref: GenerationRef) => ref.current().collection<UserDoc>("users");

export class MongoUsersWriter implements UsersWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async put(tx: MongoBatch, user: UserRecord): Promise<void> {
    const { id, ...rest } = user;
    await users(this.ref).replaceOne({ _id: id }, rest, { upsert: true, ...tx.options });
  }

  async changeProfile(tx: MongoBatch, id: string, name: string, image: string | null): Promise<void> {
    await users(this.ref).updateOne({ _id: id }, { $set: { name, image } }, tx.options);
  }

  async erase(tx: MongoBatch, id: string): Promise<string | null> {
    const removed = await users(this.ref).findOneAndDelete({ _id: id }, tx.options);
    return removed ? toRecord(removed).email : null;
  }
}

export class MongoUsersView implements UsersView {
  constructor(private readonly ref: GenerationRef) {}

  async get(id: string): Promise<UserRecord | null> {
    const doc = await users(this.ref).findOne({ _id: id });
    return doc ? toRecord(doc) : null;
  }

  async getByEmail(email: string): Promise<UserRecord | null> {
    const doc = await users(this.ref).findOne({ email });
    return doc ? toRecord(doc) : null;
  }

  async getMany(ids: readonly string[]): Promise<Map<string, UserRecord>> {
    if (ids.length === 0) return new Map();
    const docs = await users(this.ref)
      .find({ _id: { $in: [...new Set(ids)] } })
      .toArray();
    return new Map(docs.map((doc) => [doc._id, toRecord(doc)]));
  }
}
