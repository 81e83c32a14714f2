// The page listing keyed by audience in MongoDB (docs/contributing/page-listing.md), as in SQLite: one document
// per (user, live page) the user sees through a grant of their own or a group's, on the page or a folder above
// it, read newest first from one index. Writers mark the users and pages whose audience may have changed; the
// store settles the batch by recomputing exactly those from the grants, memberships and pages as the batch
// leaves them, so applying a batch again (a standalone server has no transaction) converges on the same rows.
import { z } from "zod";
import type { Filter } from "mongodb";
import type { ListKey } from "../../read-store/list-query.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

export const pageAudienceModel: MongoModel = {
  collections: ["page_audience"],
  indexes: [
    {
      collection: "page_audience",
      name: "page_audience_order",
      keys: { userId: 1, updatedPosition: -1, pageId: -1 },
      serves: "GET /pages: the pages granted to the caller or their groups, newest change first",
    },
    {
      collection: "page_audience",
      name: "page_audience_page",
      keys: { pageId: 1 },
      serves: "the projector: who lists a page that changed",
    },
  ],
};

type AudienceDoc = { _id: string; userId: string; pageId: string; updatedPosition: number };
const entrySchema = z.object({ pageId: z.string(), updatedPosition: z.number() });
const userSchema = z.object({ userId: z.string() });
const memberSchema = z.object({ memberId: z.string() });
const entitySchema = z.object({ entityType: z.enum(["page", "folder"]), entityId: z.string() });
const groupOfSchema = z.object({ groupId: z.string() });
const placedSchema = z.object({ _id: z.string(), updatedPosition: z.number(), ancestorIds: z.array(z.string()) });

const entryOf = (userId: string, pageId: string, updatedPosition: number): AudienceDoc => ({
  _id: `${userId}/${pageId}`,
  userId,
  pageId,
  updatedPosition,
});

interface Marked {
  readonly users: Set<string>;
  readonly pages: Set<string>;
}

export class MongoPageAudience {
  private readonly marked = new WeakMap<MongoBatch, Marked>();

  constructor(private readonly ref: GenerationRef) {}

  private collections() {
    const generation = this.ref.current();
    return {
      audience: generation.collection<AudienceDoc>("page_audience"),
      pages: generation.collection<{ _id: string }>("pages"),
      grants: generation.collection("grants"),
      groupGrants: generation.collection("group_grants"),
      groupMembers: generation.collection("group_members"),
    };
  }

  userChanged(tx: MongoBatch, userId: string): void {
    this.of(tx).users.add(userId);
  }

  /** Each current member of the group (read now, before any removal in the batch). */
  async groupChanged(tx: MongoBatch, groupId: string): Promise<void> {
    const members = await this.collections()
      .groupMembers.find({ groupId }, { projection: { memberId: 1 }, ...tx.options })
      .toArray();
    for (const doc of members) this.of(tx).users.add(memberSchema.parse(doc).memberId);
  }

  pageChanged(tx: MongoBatch, pageId: string): void {
    this.of(tx).pages.add(pageId);
  }

  /** The page's place in the order moved: its entries move with it. */
  async pageTouched(tx: MongoBatch, pageId: string, updatedPosition: number): Promise<void> {
    await this.collections().audience.updateMany({ pageId }, { $set: { updatedPosition } }, tx.options);
  }

  /** Called by the store once the batch's work is done, inside its transaction when there is one. */
  async settle(tx: MongoBatch): Promise<void> {
    const marked = this.marked.get(tx);
    if (!marked) return;
    this.marked.delete(tx);
    for (const pageId of marked.pages) await this.settlePage(tx, pageId);
    for (const userId of marked.users) await this.settleUser(tx, userId);
  }

  /** One user's listing, newest first after `before`: a single range of page_audience_order. */
  async listed(
    userId: string,
    before: ListKey | null,
    limit: number,
  ): Promise<Array<{ id: string; position: number }>> {
    const base: Filter<AudienceDoc> = { userId };
    const filter: Filter<AudienceDoc> =
      before === null
        ? base
        : {
            $or: [
              { userId, updatedPosition: { $lt: before.position } },
              { userId, updatedPosition: before.position, pageId: { $lt: before.id } },
            ],
          };
    const docs = await this.collections()
      .audience.find(filter, { projection: { pageId: 1, updatedPosition: 1 } })
      .sort({ updatedPosition: -1, pageId: -1 })
      .limit(limit)
      .toArray();
    return docs.map((doc) => {
      const entry = entrySchema.parse(doc);
      return { id: entry.pageId, position: entry.updatedPosition };
    });
  }

  private async settlePage(tx: MongoBatch, pageId: string): Promise<void> {
    const { audience, pages, grants, groupGrants, groupMembers } = this.collections();
    await audience.deleteMany({ pageId }, tx.options);
    const doc = await pages.findOne(
      { _id: pageId, deleted: false },
      { projection: { updatedPosition: 1, ancestorIds: 1 }, ...tx.options },
    );
    if (!doc) return;
    const page = placedSchema.parse(doc);
    const reaching = {
      $or: [
        { entityType: "page", entityId: pageId },
        { entityType: "folder", entityId: { $in: page.ancestorIds } },
      ],
    };
    const users = new Set(
      (await grants.find(reaching, { projection: { userId: 1 }, ...tx.options }).toArray()).map(
        (grant) => userSchema.parse(grant).userId,
      ),
    );
    const groupIds = (await groupGrants.find(reaching, { projection: { groupId: 1 }, ...tx.options }).toArray()).map(
      (grant) => groupOfSchema.parse(grant).groupId,
    );
    if (groupIds.length > 0) {
      const members = await groupMembers
        .find({ groupId: { $in: groupIds } }, { projection: { memberId: 1 }, ...tx.options })
        .toArray();
      for (const member of members) users.add(memberSchema.parse(member).memberId);
    }
    if (users.size === 0) return;
    const entries = [...users].map((userId) => entryOf(userId, pageId, page.updatedPosition));
    await audience.insertMany(entries, { ordered: false, ...tx.options });
  }

  private async settleUser(tx: MongoBatch, userId: string): Promise<void> {
    const { audience, pages, grants, groupGrants, groupMembers } = this.collections();
    await audience.deleteMany({ userId }, tx.options);
    const groupIds = (
      await groupMembers.find({ memberId: userId }, { projection: { groupId: 1 }, ...tx.options }).toArray()
    ).map((member) => groupOfSchema.parse(member).groupId);
    const held = [
      ...(await grants.find({ userId }, { projection: { entityType: 1, entityId: 1 }, ...tx.options }).toArray()),
      ...(groupIds.length === 0
        ? []
        : await groupGrants
            .find({ groupId: { $in: groupIds } }, { projection: { entityType: 1, entityId: 1 }, ...tx.options })
            .toArray()),
    ].map((grant) => entitySchema.parse(grant));
    const pageIds = held.filter((grant) => grant.entityType === "page").map((grant) => grant.entityId);
    const folderIds = held.filter((grant) => grant.entityType === "folder").map((grant) => grant.entityId);
    if (pageIds.length === 0 && folderIds.length === 0) return;
    const listed = await pages
      .find(
        { deleted: false, $or: [{ _id: { $in: pageIds } }, { ancestorIds: { $in: folderIds } }] },
        { projection: { updatedPosition: 1, ancestorIds: 1 }, ...tx.options },
      )
      .toArray();
    const entries = listed.map((doc) => {
      const page = placedSchema.parse(doc);
      return entryOf(userId, page._id, page.updatedPosition);
    });
    if (entries.length > 0) await audience.insertMany(entries, { ordered: false, ...tx.options });
  }

  private of(tx: MongoBatch): Marked {
    let marked = this.marked.get(tx);
    if (!marked) {
      marked = { users: new Set(), pages: new Set() };
      this.marked.set(tx, marked);
    }
    return marked;
  }
}
