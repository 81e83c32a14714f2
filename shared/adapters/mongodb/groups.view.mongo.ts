// Groups: name and member count per group (members and grants are in the access model).
import { z } from "zod";
import type { GroupRecord, GroupsView, GroupsWriter } from "../../groups/groups.view.ts";
import type { ListKey } from "../../read-store/list-query.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

const groupSchema = z.object({
  _id: z.string(),
  ownerId: z.string(),
  name: z.string(),
  memberCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  position: z.number(),
});
type GroupDoc = z.infer<typeof groupSchema>;

export const groupsModel: MongoModel = {
  collections: ["groups"],
  indexes: [
    {
      collection: "groups",
      name: "groups_owner",
      keys: { ownerId: 1, position: -1, _id: -1 },
      serves: "GET /groups: the groups of the workspaces the caller manages",
    },
  ],
};

const toRecord = (doc: unknown): GroupRecord => {
  const { _id, ...rest } = groupSchema.parse(doc);
  return { id: _id, ...rest };
};
const groups = (ref: GenerationRef) => ref.current().collection<GroupDoc>("groups");

export class MongoGroupsWriter implements GroupsWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async put(tx: MongoBatch, group: GroupRecord): Promise<void> {
    const { id, ...rest } = group;
    await groups(this.ref).updateOne({ _id: id }, { $setOnInsert: rest }, { upsert: true, ...tx.options });
  }

  async rename(tx: MongoBatch, id: string, name: string, updatedAt: string): Promise<void> {
    await groups(this.ref).updateOne({ _id: id }, { $set: { name, updatedAt } }, tx.options);
  }

  async countMembers(tx: MongoBatch, id: string, delta: 1 | -1, updatedAt: string): Promise<void> {
    await groups(this.ref).updateOne({ _id: id }, { $inc: { memberCount: delta }, $set: { updatedAt } }, tx.options);
  }

  async remove(tx: MongoBatch, id: string): Promise<void> {
    await groups(this.ref).deleteOne({ _id: id }, tx.options);
  }
}

export class MongoGroupsView implements GroupsView {
  constructor(private readonly ref: GenerationRef) {}

  async get(id: string): Promise<GroupRecord | null> {
    const doc = await groups(this.ref).findOne({ _id: id });
    return doc === null ? null : toRecord(doc);
  }

  async list(query: {
    ownerIds: readonly string[];
    groupIds: readonly string[];
    before: ListKey | null;
    limit: number;
  }): Promise<GroupRecord[]> {
    if (query.ownerIds.length === 0 && query.groupIds.length === 0) return [];
    const before = query.before;
    const below =
      before === null
        ? {}
        : {
            $or: [
              { position: { $lt: before.position } },
              ...(before.id === "" ? [] : [{ position: before.position, _id: { $lt: before.id } }]),
            ],
          };
    const sources = { $or: [{ ownerId: { $in: [...query.ownerIds] } }, { _id: { $in: [...query.groupIds] } }] };
    const docs = await groups(this.ref)
      .find({ $and: [sources, below] })
      .sort({ position: -1, _id: -1 })
      .limit(query.limit)
      .toArray();
    return docs.map(toRecord);
  }
}
