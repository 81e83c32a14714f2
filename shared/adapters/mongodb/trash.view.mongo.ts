// The trash in MongoDB: one document per deleted item (`_id` `<type>:<id>`) until it is restored or purged;
// writes are replacements and deletions by id, so a batch applied again ends in the same documents.
import { z } from "zod";
import type { TrashItem, TrashType, TrashView, TrashWriter } from "../../trash/trash.view.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

const trashSchema = z.object({
  _id: z.string(),
  type: z.enum(["page", "folder"]),
  id: z.string(),
  ownerId: z.string(),
  title: z.string(),
  parentId: z.string().nullable(),
  deletedAt: z.string(),
  deletedBy: z.string(),
  deletedWith: z.string().nullable(),
  position: z.number(),
});
type TrashDoc = z.infer<typeof trashSchema>;

export const trashModel: MongoModel = {
  collections: ["trash"],
  indexes: [
    { collection: "trash", name: "trash_owner", keys: { ownerId: 1, deletedWith: 1, position: -1 }, serves: "GET /trash: the deleted items of the caller's workspaces, newest first" },
    { collection: "trash", name: "trash_with", keys: { deletedWith: 1 }, serves: "restoring a folder: what its recursive deletion took along" },
    { collection: "trash", name: "trash_deleted_at", keys: { deletedAt: 1 }, serves: "the purge: items past the retention period, oldest first" },
  ],
};

const trash = (ref: GenerationRef) => ref.current().collection<TrashDoc>("trash");
const docId = (type: TrashType, id: string): string => `${type}:${id}`;
const toItem = (doc: unknown): TrashItem => {
  const { _id: _key, ...item } = trashSchema.parse(doc);
  return item;
};

export class MongoTrashWriter implements TrashWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async put(tx: MongoBatch, item: TrashItem): Promise<void> {
    await trash(this.ref).replaceOne({ _id: docId(item.type, item.id) }, item, { upsert: true, ...tx.options });
  }

  async remove(tx: MongoBatch, type: TrashType, id: string): Promise<void> {
    await trash(this.ref).deleteOne({ _id: docId(type, id) }, tx.options);
  }
}

export class MongoTrashView implements TrashView {
  constructor(private readonly ref: GenerationRef) {}

  async get(type: TrashType, id: string): Promise<TrashItem | null> {
    const doc = await trash(this.ref).findOne({ _id: docId(type, id) });
    return doc ? toItem(doc) : null;
  }

  async list(ownerIds: readonly string[], before: number | null, limit: number): Promise<TrashItem[]> {
    if (ownerIds.length === 0) return [];
    const owners = { ownerId: { $in: [...ownerIds] }, deletedWith: null };
    const filter = before === null ? owners : { ...owners, position: { $lt: before } };
    return (await trash(this.ref).find(filter).sort({ position: -1 }).limit(limit).toArray()).map(toItem);
  }

  async deletedWith(folderId: string): Promise<TrashItem[]> {
    return (await trash(this.ref).find({ deletedWith: folderId }).toArray()).map(toItem);
  }

  async expired(deletedBefore: string, limit: number): Promise<TrashItem[]> {
    return (await trash(this.ref).find({ deletedAt: { $lt: deletedBefore } }).sort({ deletedAt: 1 }).limit(limit).toArray()).map(toItem);
  }
}
