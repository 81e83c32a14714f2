// The mentions read model in MongoDB: one document per (source, mentioned user), keeping the position where the
// mention first appeared.
import { z } from "zod";
import type { MentionRecord, MentionSource, MentionsView, MentionsWriter } from "../../mentions/mentions.view.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

const mentionSchema = z.object({
  _id: z.string(),
  sourceKind: z.enum(["page", "comment"]),
  sourceId: z.string(),
  userId: z.string(),
  pageId: z.string(),
  since: z.number(),
});
type MentionDoc = z.infer<typeof mentionSchema>;

export const mentionsModel: MongoModel = {
  collections: ["mentions"],
  indexes: [
    {
      collection: "mentions",
      name: "mentions_source",
      keys: { sourceKind: 1, sourceId: 1, userId: 1 },
      serves: "who a page or comment mentions; replacing them when its text changes",
    },
  ],
};

const mentions = (ref: GenerationRef) => ref.current().collection<MentionDoc>("mentions");
const idOf = (source: MentionSource, userId: string): string => `${source.kind}:${source.id}:${userId}`;

export class MongoMentionsWriter implements MentionsWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async setMentions(
    tx: MongoBatch,
    source: MentionSource,
    pageId: string,
    userIds: readonly string[],
    position: number,
  ): Promise<void> {
    await mentions(this.ref).deleteMany(
      { sourceKind: source.kind, sourceId: source.id, userId: { $nin: [...userIds] } },
      tx.options,
    );
    for (const userId of userIds) {
      const doc = { sourceKind: source.kind, sourceId: source.id, userId, pageId, since: position };
      await mentions(this.ref).updateOne(
        { _id: idOf(source, userId) },
        { $setOnInsert: doc },
        { upsert: true, ...tx.options },
      );
    }
  }

  async removeSource(tx: MongoBatch, source: MentionSource): Promise<void> {
    await mentions(this.ref).deleteMany({ sourceKind: source.kind, sourceId: source.id }, tx.options);
  }

  async mentionedIn(tx: MongoBatch, source: MentionSource): Promise<string[]> {
    const docs = await mentions(this.ref)
      .find({ sourceKind: source.kind, sourceId: source.id }, { projection: { userId: 1 }, ...tx.options })
      .toArray();
    return docs.map((doc) => doc.userId);
  }
}

export class MongoMentionsView implements MentionsView {
  constructor(private readonly ref: GenerationRef) {}

  async mentionsIn(source: MentionSource): Promise<MentionRecord[]> {
    const docs = await mentions(this.ref)
      .find({ sourceKind: source.kind, sourceId: source.id })
      .sort({ userId: 1 })
      .toArray();
    return docs.map((doc) => {
      const row = mentionSchema.parse(doc);
      return {
        source: { kind: row.sourceKind, id: row.sourceId },
        pageId: row.pageId,
        userId: row.userId,
        since: row.since,
      };
    });
  }
}
