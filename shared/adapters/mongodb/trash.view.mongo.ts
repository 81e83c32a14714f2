// The trash in MongoDB: one document per deleted item (`_id` `<type>:<id>`) until it is restored or purged;
// writes are replacements and deletions by id, so a batch applied again ends in the same documents.
import { z } from "zod";
import {
  ancestorsBelow,
  type TrashItem,
  type TrashSources,
  type TrashType,
  type TrashView,
  type TrashWriter,
} from "../../trash/trash.view.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

const trashSchema = z.object({
  _id: z.string(),
  type: z.enum(["page", "folder"]),
  id: z.string(),
  ownerId: z.string(),
  title: z.string(),
  parentId: z.string().nullable(),
  ancestorIds: z.array(z.string()),
  deletedAt: z.string(),
  deletedBy: z.string(),
  deletedWith: z.string().nullable(),
  position: z.number(),
});
type TrashDoc = z.infer<typeof trashSchema>;

export const trashModel: MongoModel = {
  collections: ["trash"],
  indexes: [
    {
      collection: "trash",
      name: "trash_owner",
      keys: { ownerId: 1, deletedWith: 1, position: -1 },
      serves: "GET /trash: the deleted items of the caller's workspaces, newest first",
    },
    {
      collection: "trash",
      name: "trash_ancestors",
      keys: { ancestorIds: 1, deletedWith: 1, position: -1 },
      serves:
        "GET /trash: the deleted items below a folder granted to the caller, newest first; what lies below a moved folder",
    },
    {
      collection: "trash",
      name: "trash_with",
      keys: { deletedWith: 1 },
      serves: "restoring a folder: what its recursive deletion took along",
    },
    {
      collection: "trash",
      name: "trash_deleted_at",
      keys: { deletedAt: 1 },
      serves: "the purge: items past the retention period, oldest first",
    },
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
    await trash(this.ref).replaceOne(
      { _id: docId(item.type, item.id) },
      { ...item, ancestorIds: [...item.ancestorIds] },
      { upsert: true, ...tx.options },
    );
  }

  /** Recomputed from the moved folder's place, so a batch applied again writes the same ancestors. */
  async placeBelow(
    tx: MongoBatch,
    folder: { readonly id: string; readonly ancestorIds: readonly string[] },
  ): Promise<void> {
    const below = await trash(this.ref)
      .find({ ancestorIds: folder.id }, { projection: { ancestorIds: 1 }, ...tx.options })
      .toArray();
    if (below.length === 0) return;
    const updates = below.map((doc) => ({
      updateOne: {
        filter: { _id: doc._id },
        update: { $set: { ancestorIds: ancestorsBelow(doc.ancestorIds, folder) } },
      },
    }));
    await trash(this.ref).bulkWrite(updates, { ordered: false, ...tx.options });
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

  /** One query per kind of source (owners, granted folders, granted items), each newest first and limited. */
  async list(sources: TrashSources, before: number | null, limit: number): Promise<TrashItem[]> {
    const older = before === null ? {} : { position: { $lt: before } };
    const newest = (filter: object) =>
      trash(this.ref)
        .find({ ...filter, deletedWith: null, ...older })
        .sort({ position: -1 })
        .limit(limit)
        .toArray();
    const keys = [
      ...sources.folderIds.map((id) => docId("folder", id)),
      ...sources.pageIds.map((id) => docId("page", id)),
    ];
    const found = await Promise.all([
      sources.ownerIds.length > 0 ? newest({ ownerId: { $in: [...sources.ownerIds] } }) : [],
      sources.folderIds.length > 0 ? newest({ ancestorIds: { $in: [...sources.folderIds] } }) : [],
      keys.length > 0 ? newest({ _id: { $in: keys } }) : [],
    ]);
    const unique = new Map(
      found
        .flat()
        .map(toItem)
        .map((item) => [item.position, item]),
    );
    return [...unique.values()].sort((a, b) => b.position - a.position).slice(0, limit);
  }

  async deletedWith(folderId: string): Promise<TrashItem[]> {
    return (await trash(this.ref).find({ deletedWith: folderId }).toArray()).map(toItem);
  }

  async expired(deletedBefore: string, limit: number): Promise<TrashItem[]> {
    return (
      await trash(this.ref)
        .find({ deletedAt: { $lt: deletedBefore } })
        .sort({ deletedAt: 1 })
        .limit(limit)
        .toArray()
    ).map(toItem);
  }
}
