// The attachments read model in MongoDB: one document per upload, a deleted one marked until its page is purged.
import { z } from "zod";
import type { AttachmentRecord, AttachmentsView, AttachmentsWriter } from "../../attachments/attachments.view.ts";
import type { ListKey } from "../../read-store/list-query.ts";
import { recordOf, type GenerationRef, type MongoBatch, type MongoModel } from "./mongo-batch.ts";

const attachmentSchema = z.object({
  _id: z.string(),
  pageId: z.string(),
  uploaderId: z.string(),
  filename: z.string(),
  originalName: z.string(),
  mimeType: z.string(),
  size: z.number(),
  sha256: z.string(),
  createdAt: z.string(),
  position: z.number(),
  deletedAt: z.string().nullable(),
});
type AttachmentDoc = z.infer<typeof attachmentSchema>;

export const attachmentsModel: MongoModel = {
  collections: ["attachments"],
  indexes: [
    {
      collection: "attachments",
      name: "attachments_page",
      keys: { pageId: 1, position: -1, _id: -1 },
      serves: "a page's attachments newest first, and the records a purge removes",
    },
  ],
};

const attachments = (ref: GenerationRef) => ref.current().collection<AttachmentDoc>("attachments");

export class MongoAttachmentsWriter implements AttachmentsWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async put(tx: MongoBatch, attachment: AttachmentRecord): Promise<void> {
    const { id, ...rest } = attachment;
    await attachments(this.ref).replaceOne({ _id: id }, rest, { upsert: true, ...tx.options });
  }

  async markDeleted(tx: MongoBatch, id: string, deletedAt: string): Promise<void> {
    await attachments(this.ref).updateOne({ _id: id }, { $set: { deletedAt } }, tx.options);
  }

  async bytesOfPage(tx: MongoBatch, pageId: string): Promise<number> {
    const [total] = await attachments(this.ref)
      .aggregate<{ bytes: number }>(
        [{ $match: { pageId } }, { $group: { _id: null, bytes: { $sum: "$size" } } }],
        tx.options,
      )
      .toArray();
    return total?.bytes ?? 0;
  }

  async bytesOf(tx: MongoBatch, id: string): Promise<number> {
    const found = await attachments(this.ref).findOne({ _id: id }, { ...tx.options, projection: { size: 1 } });
    return found?.size ?? 0;
  }

  async removePage(tx: MongoBatch, pageId: string): Promise<void> {
    await attachments(this.ref).deleteMany({ pageId }, tx.options);
  }
}

export class MongoAttachmentsView implements AttachmentsView {
  constructor(private readonly ref: GenerationRef) {}

  async get(id: string): Promise<AttachmentRecord | null> {
    const doc = await attachments(this.ref).findOne({ _id: id });
    return doc ? recordOf(attachmentSchema, doc) : null;
  }

  async list(query: { pageId: string; before: ListKey | null; limit: number }): Promise<AttachmentRecord[]> {
    const { pageId, before, limit } = query;
    const resume = before
      ? { $or: [{ position: { $lt: before.position } }, { position: before.position, _id: { $lt: before.id } }] }
      : {};
    const docs = await attachments(this.ref)
      .find({ pageId, deletedAt: null, ...resume })
      .sort({ position: -1, _id: -1 })
      .limit(limit + 1)
      .toArray();
    return docs.map((doc) => recordOf(attachmentSchema, doc));
  }

  async allOfPage(pageId: string, afterId: string | null, limit: number): Promise<AttachmentRecord[]> {
    const docs = await attachments(this.ref)
      .find({ pageId, ...(afterId === null ? {} : { _id: { $gt: afterId } }) })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((doc) => recordOf(attachmentSchema, doc));
  }
}
