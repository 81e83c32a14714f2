import { z } from "zod";
import { after, NEWEST_FIRST } from "./list-order.mongo.ts";
import type { ListQuery } from "../../read-store/list-query.ts";
import type { Changed, FolderRecord, FoldersView, FoldersWriter } from "../../folders/folders.view.ts";
import { accessKeysOf, visibleKeys } from "./access-keys.ts";
import { reRooted } from "../../folders/folder-place.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

const folderSchema = z.object({
  _id: z.string(),
  ownerId: z.string(),
  parentId: z.string().nullable(),
  name: z.string(),
  icon: z.string().nullable(),
  ancestorIds: z.array(z.string()),
  path: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedPosition: z.number(),
  accessKeys: z.array(z.string()),
});
type FolderDoc = z.infer<typeof folderSchema>;

export const foldersModel: MongoModel = {
  collections: ["folders"],
  indexes: [
    {
      collection: "folders",
      name: "folders_visible",
      keys: { accessKeys: 1, updatedPosition: -1, _id: -1 },
      serves: "GET /folders: the caller's visible folders, newest change first, in one query",
    },
    {
      collection: "folders",
      name: "folders_parent",
      keys: { parentId: 1 },
      serves: "whether a folder holds a folder (deletion)",
    },
    {
      collection: "folders",
      name: "folders_ancestors",
      keys: { ancestorIds: 1 },
      serves: "the folders below a moved or renamed folder",
    },
  ],
};

const folders = (ref: GenerationRef) => ref.current().collection<FolderDoc>("folders");
const toRecord = (doc: unknown): FolderRecord => {
  const { _id, accessKeys: _accessKeys, ...rest } = folderSchema.parse(doc);
  return { id: _id, ...rest };
};
const toDoc = (folder: FolderRecord): Omit<FolderDoc, "_id"> => {
  const { id: _id, ...rest } = folder;
  return { ...rest, accessKeys: accessKeysOf("folder", folder) };
};

export class MongoFoldersWriter implements FoldersWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async put(tx: MongoBatch, folder: FolderRecord): Promise<void> {
    await folders(this.ref).replaceOne({ _id: folder.id }, toDoc(folder), { upsert: true, ...tx.options });
  }

  async get(tx: MongoBatch, id: string): Promise<FolderRecord | null> {
    const doc = await folders(this.ref).findOne({ _id: id }, tx.options);
    return doc ? toRecord(doc) : null;
  }

  async place(tx: MongoBatch, folder: FolderRecord, descendantsChanged: Changed | null): Promise<void> {
    const before = await this.get(tx, folder.id);
    await this.put(tx, folder);
    if (!before) return;
    const below = (await folders(this.ref).find({ ancestorIds: folder.id }, tx.options).toArray()).map(toRecord);
    if (below.length === 0) return;
    const updates = below.map((row) => {
      const placed = { ...row, ...reRooted(row, folder), ...(descendantsChanged ?? {}) };
      return { replaceOne: { filter: { _id: row.id }, replacement: toDoc(placed) } };
    });
    await folders(this.ref).bulkWrite(updates, { ordered: true, ...tx.options });
  }

  async remove(tx: MongoBatch, id: string): Promise<void> {
    await folders(this.ref).deleteOne({ _id: id }, tx.options);
  }
}

export class MongoFoldersView implements FoldersView {
  constructor(private readonly ref: GenerationRef) {}

  async get(id: string): Promise<FolderRecord | null> {
    const doc = await folders(this.ref).findOne({ _id: id });
    return doc ? toRecord(doc) : null;
  }

  async list(query: ListQuery & { parentId?: string }): Promise<FolderRecord[]> {
    const inParent = query.parentId === undefined ? {} : { parentId: query.parentId };
    const filter = after<FolderDoc>({ accessKeys: { $in: visibleKeys(query.visibleTo) }, ...inParent }, query.before);
    const docs = await folders(this.ref)
      .find(filter)
      .sort(NEWEST_FIRST)
      .limit(query.limit + 1)
      .toArray();
    return docs.map(toRecord);
  }

  async below(id: string): Promise<{ folders: FolderRecord[]; pageIds: string[] }> {
    const generation = this.ref.current();
    const folders = await generation.collection<FolderDoc>("folders").find({ ancestorIds: id }).toArray();
    const pages = await generation
      .collection<{ _id: string }>("pages")
      .find({ ancestorIds: id, deleted: false }, { projection: { _id: 1 } })
      .toArray();
    return { folders: folders.map(toRecord), pageIds: pages.map((page) => page._id) };
  }

  async isEmpty(id: string): Promise<boolean> {
    const generation = this.ref.current();
    const folder = await generation
      .collection<FolderDoc>("folders")
      .findOne({ parentId: id }, { projection: { _id: 1 } });
    if (folder) return false;
    const page = await generation
      .collection<{ _id: string }>("pages")
      .findOne({ parentId: id, deleted: false }, { projection: { _id: 1 } });
    return page === null;
  }
}
