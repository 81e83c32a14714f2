// Grants, workspace memberships and, per user, the position of the last change to their access: a query node
// keeps each user's access context until that position moves (shared/access/access-context-cache.ts).
import { z } from "zod";
import { AccessContextCache } from "../../access/access-context-cache.ts";
import type { AccessContext } from "../../access/access-context.ts";
import type {
  AccessView,
  AccessWriter,
  EntityType,
  GrantRecord,
  GroupGrantRecord,
  GroupMemberRecord,
  MemberRecord,
} from "../../access/access.view.ts";
import { assembleContext } from "../../access/assemble-context.ts";
import type { ListKey } from "../../read-store/list-query.ts";
import { grantablePermissionSchema, workspaceRoleSchema, type WorkspaceRole } from "../../kernel/permissions.ts";
import type { CacheMetrics } from "../../metrics/metrics.port.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";
import type { MongoPageAudience } from "./page-audience.mongo.ts";

const grantSchema = z.object({
  _id: z.string(),
  entityType: z.enum(["page", "folder"]),
  entityId: z.string(),
  userId: z.string(),
  permission: grantablePermissionSchema,
  grantedBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const memberSchema = z.object({
  _id: z.string(),
  id: z.string(),
  ownerId: z.string(),
  memberId: z.string(),
  role: workspaceRoleSchema,
  createdAt: z.string(),
});
const groupGrantSchema = z.object({
  _id: z.string(),
  entityType: z.enum(["page", "folder"]),
  entityId: z.string(),
  groupId: z.string(),
  permission: grantablePermissionSchema,
  grantedBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const groupMemberSchema = z.object({
  _id: z.string(),
  groupId: z.string(),
  ownerId: z.string(),
  memberId: z.string(),
  position: z.number(),
  createdAt: z.string(),
});
const groupRoleSchema = z.object({ _id: z.string(), ownerId: z.string(), role: workspaceRoleSchema });
type GroupGrantDoc = z.infer<typeof groupGrantSchema>;
type GroupMemberDoc = z.infer<typeof groupMemberSchema>;
type GroupRoleDoc = z.infer<typeof groupRoleSchema>;
type GrantDoc = z.infer<typeof grantSchema>;
type MemberDoc = z.infer<typeof memberSchema>;
type ChangeDoc = { _id: string; position: number };

export const accessModel: MongoModel = {
  collections: ["grants", "members", "group_members", "group_grants", "group_roles", "access_changes"],
  indexes: [
    {
      collection: "grants",
      name: "grants_user",
      keys: { userId: 1 },
      serves: "a user's grants, for their access context",
    },
    {
      collection: "grants",
      name: "grants_entity",
      keys: { entityType: 1, entityId: 1, createdAt: 1 },
      serves: "GET /pages|folders/{id}/permissions",
    },
    {
      collection: "members",
      name: "members_member",
      keys: { memberId: 1, createdAt: 1 },
      serves: "a user's workspace roles, for their access context",
    },
    {
      collection: "members",
      name: "members_owner",
      keys: { ownerId: 1, createdAt: 1 },
      serves: "GET /workspace/members",
    },
    {
      collection: "group_members",
      name: "group_members_member",
      keys: { memberId: 1 },
      serves: "a user's groups, for their access context and GET /groups",
    },
    {
      collection: "group_members",
      name: "group_members_order",
      keys: { groupId: 1, position: 1, memberId: 1 },
      serves: "GET /groups/{id}/members, and marking a group's members changed",
    },
    {
      collection: "group_grants",
      name: "group_grants_group",
      keys: { groupId: 1 },
      serves: "a user's groups' grants, for their access context",
    },
    {
      collection: "group_grants",
      name: "group_grants_entity",
      keys: { entityType: 1, entityId: 1, createdAt: 1 },
      serves: "GET /shares/entity/{type}/{id}: the groups' grants",
    },
  ],
};

const grantKey = (userId: string, entityType: EntityType, entityId: string) => `${userId}|${entityType}|${entityId}`;
const memberKey = (ownerId: string, memberId: string) => `${ownerId}|${memberId}`;
const toGrant = (doc: unknown): GrantRecord => {
  const { _id, ...grant } = grantSchema.parse(doc);
  return grant;
};
const groupGrantKey = (groupId: string, entityType: EntityType, entityId: string) =>
  `${groupId}|${entityType}|${entityId}`;
const groupMemberKey = (groupId: string, memberId: string) => `${groupId}|${memberId}`;
const toGroupGrant = (doc: unknown): GroupGrantRecord => {
  const { _id, ...grant } = groupGrantSchema.parse(doc);
  return grant;
};
const toGroupMember = (doc: unknown): GroupMemberRecord => {
  const { _id, ...member } = groupMemberSchema.parse(doc);
  return member;
};
const toMember = (doc: unknown): MemberRecord => {
  const { _id, ...member } = memberSchema.parse(doc);
  return member;
};

const collections = (ref: GenerationRef) => {
  const generation = ref.current();
  return {
    grants: generation.collection<GrantDoc>("grants"),
    members: generation.collection<MemberDoc>("members"),
    changes: generation.collection<ChangeDoc>("access_changes"),
    groupMembers: generation.collection<GroupMemberDoc>("group_members"),
    groupGrants: generation.collection<GroupGrantDoc>("group_grants"),
    groupRoles: generation.collection<GroupRoleDoc>("group_roles"),
  };
};

/** A user's access context read now (with `options`: as a batch sees it). */
async function loadContext(ref: GenerationRef, userId: string, options: MongoBatch["options"]): Promise<AccessContext> {
  const { grants, members, groupMembers, groupGrants, groupRoles } = collections(ref);
  const groupIds = (
    await groupMembers.find({ memberId: userId }, { projection: { groupId: 1 }, ...options }).toArray()
  ).map((doc) => doc.groupId);
  const ownGrants = (await grants.find({ userId }, options).toArray()).map(toGrant);
  const ownRoles = (await members.find({ memberId: userId }, options).toArray()).map(toMember);
  const viaGroups =
    groupIds.length === 0
      ? { grants: [], roles: [] }
      : {
          grants: (await groupGrants.find({ groupId: { $in: groupIds } }, options).toArray()).map(toGroupGrant),
          roles: (await groupRoles.find({ _id: { $in: groupIds } }, options).toArray()).map((doc) =>
            groupRoleSchema.parse(doc),
          ),
        };
  return assembleContext(userId, {
    grants: [...ownGrants, ...viaGroups.grants],
    roles: [...ownRoles, ...viaGroups.roles],
    groupIds,
  });
}

/** One page of a group's members, oldest first, after `after`. */
async function groupMembersAfter(
  ref: GenerationRef,
  query: { groupId: string; after: ListKey | null; limit: number },
  options: MongoBatch["options"],
): Promise<GroupMemberRecord[]> {
  const { groupId, after, limit } = query;
  const from =
    after === null
      ? {}
      : { $or: [{ position: { $gt: after.position } }, { position: after.position, memberId: { $gt: after.id } }] };
  const docs = await collections(ref)
    .groupMembers.find({ groupId, ...from }, options)
    .sort({ position: 1, memberId: 1 })
    .limit(limit)
    .toArray();
  return docs.map(toGroupMember);
}

export class MongoAccessWriter implements AccessWriter<MongoBatch> {
  /** `audience`: the per-user page listing (page-audience.mongo.ts), told whose access changed. */
  constructor(
    private readonly ref: GenerationRef,
    private readonly audience: MongoPageAudience,
  ) {}

  async contextFor(tx: MongoBatch, userId: string): Promise<AccessContext> {
    return loadContext(this.ref, userId, tx.options);
  }

  async groupMembers(
    tx: MongoBatch,
    groupId: string,
    after: ListKey | null,
    limit: number,
  ): Promise<GroupMemberRecord[]> {
    return groupMembersAfter(this.ref, { groupId, after, limit }, tx.options);
  }

  /** `$max`: a batch applied again never moves a user's change position back. */
  private async changed(tx: MongoBatch, userId: string, position: number): Promise<void> {
    this.audience.userChanged(tx, userId);
    await collections(this.ref).changes.updateOne(
      { _id: userId },
      { $max: { position } },
      { upsert: true, ...tx.options },
    );
  }

  /** Every member of the group: what the group holds is each member's access. Bounded by the group's size cap. */
  private async groupChanged(tx: MongoBatch, groupId: string, position: number): Promise<void> {
    const members = await collections(this.ref)
      .groupMembers.find({ groupId }, { projection: { memberId: 1 }, ...tx.options })
      .toArray();
    if (members.length === 0) return;
    for (const { memberId } of members) this.audience.userChanged(tx, memberId);
    const operations = members.map(({ memberId }) => ({
      updateOne: { filter: { _id: memberId }, update: { $max: { position } }, upsert: true },
    }));
    await collections(this.ref).changes.bulkWrite(operations, { ordered: false, ...tx.options });
  }

  async putGroupGrant(tx: MongoBatch, grant: GroupGrantRecord, position: number): Promise<void> {
    const { createdAt, ...rest } = grant;
    const _id = groupGrantKey(grant.groupId, grant.entityType, grant.entityId);
    await collections(this.ref).groupGrants.updateOne(
      { _id },
      { $set: rest, $setOnInsert: { createdAt } },
      { upsert: true, ...tx.options },
    );
    await this.groupChanged(tx, grant.groupId, position);
  }

  async removeGroupGrant(
    tx: MongoBatch,
    entityType: EntityType,
    entityId: string,
    groupId: string,
    position: number,
  ): Promise<void> {
    await collections(this.ref).groupGrants.deleteOne(
      { _id: groupGrantKey(groupId, entityType, entityId) },
      tx.options,
    );
    await this.groupChanged(tx, groupId, position);
  }

  async putGroupMember(tx: MongoBatch, member: GroupMemberRecord, position: number): Promise<void> {
    const _id = groupMemberKey(member.groupId, member.memberId);
    await collections(this.ref).groupMembers.updateOne(
      { _id },
      { $setOnInsert: member },
      { upsert: true, ...tx.options },
    );
    await this.changed(tx, member.memberId, position);
  }

  async removeGroupMember(tx: MongoBatch, groupId: string, memberId: string, position: number): Promise<void> {
    await collections(this.ref).groupMembers.deleteOne({ _id: groupMemberKey(groupId, memberId) }, tx.options);
    await this.changed(tx, memberId, position);
  }

  async setGroupRole(
    tx: MongoBatch,
    groupId: string,
    ownerId: string,
    role: WorkspaceRole | null,
    position: number,
  ): Promise<void> {
    if (role === null) await collections(this.ref).groupRoles.deleteOne({ _id: groupId }, tx.options);
    else
      await collections(this.ref).groupRoles.updateOne(
        { _id: groupId },
        { $set: { ownerId, role } },
        { upsert: true, ...tx.options },
      );
    await this.groupChanged(tx, groupId, position);
  }

  async removeGroup(tx: MongoBatch, groupId: string, position: number): Promise<void> {
    // Access changes first: applied again after a crash, the batch still finds the members to mark.
    await this.groupChanged(tx, groupId, position);
    const { groupGrants, groupRoles, groupMembers } = collections(this.ref);
    await groupGrants.deleteMany({ groupId }, tx.options);
    await groupRoles.deleteOne({ _id: groupId }, tx.options);
    await groupMembers.deleteMany({ groupId }, tx.options);
  }

  async putGrant(tx: MongoBatch, grant: GrantRecord, position: number): Promise<void> {
    const { createdAt, ...rest } = grant;
    const _id = grantKey(grant.userId, grant.entityType, grant.entityId);
    await collections(this.ref).grants.updateOne(
      { _id },
      { $set: rest, $setOnInsert: { createdAt } },
      { upsert: true, ...tx.options },
    );
    await this.changed(tx, grant.userId, position);
  }

  async removeGrant(
    tx: MongoBatch,
    entityType: EntityType,
    entityId: string,
    userId: string,
    position: number,
  ): Promise<void> {
    await collections(this.ref).grants.deleteOne({ _id: grantKey(userId, entityType, entityId) }, tx.options);
    await this.changed(tx, userId, position);
  }

  async removeEntity(tx: MongoBatch, entityType: EntityType, entityId: string, position: number): Promise<void> {
    await this.removeEntityGroups(tx, entityType, entityId, position);
    const grants = await collections(this.ref)
      .grants.find({ entityType, entityId }, { projection: { userId: 1 }, ...tx.options })
      .toArray();
    if (grants.length === 0) return;
    // Access changes first: applied again after a crash, the batch still finds the grants whose users to mark.
    for (const { userId } of grants) await this.changed(tx, userId, position);
    await collections(this.ref).grants.deleteMany({ entityType, entityId }, tx.options);
  }

  private async removeEntityGroups(
    tx: MongoBatch,
    entityType: EntityType,
    entityId: string,
    position: number,
  ): Promise<void> {
    const grants = await collections(this.ref)
      .groupGrants.find({ entityType, entityId }, { projection: { groupId: 1 }, ...tx.options })
      .toArray();
    for (const { groupId } of grants) await this.groupChanged(tx, groupId, position);
    if (grants.length > 0) await collections(this.ref).groupGrants.deleteMany({ entityType, entityId }, tx.options);
  }

  async putMember(tx: MongoBatch, member: MemberRecord, position: number): Promise<void> {
    const { role, ...rest } = member;
    const _id = memberKey(member.ownerId, member.memberId);
    await collections(this.ref).members.updateOne(
      { _id },
      { $set: { role }, $setOnInsert: rest },
      { upsert: true, ...tx.options },
    );
    await this.changed(tx, member.memberId, position);
  }

  async changeRole(
    tx: MongoBatch,
    ownerId: string,
    memberId: string,
    role: WorkspaceRole,
    position: number,
  ): Promise<void> {
    await collections(this.ref).members.updateOne(
      { _id: memberKey(ownerId, memberId) },
      { $set: { role } },
      tx.options,
    );
    await this.changed(tx, memberId, position);
  }

  async removeMember(tx: MongoBatch, ownerId: string, memberId: string, position: number): Promise<void> {
    await collections(this.ref).members.deleteOne({ _id: memberKey(ownerId, memberId) }, tx.options);
    await this.changed(tx, memberId, position);
  }
}

export class MongoAccessView implements AccessView {
  private readonly contexts: AccessContextCache;

  constructor(
    private readonly ref: GenerationRef,
    cache?: CacheMetrics,
  ) {
    this.contexts = new AccessContextCache(cache);
  }

  async contextFor(userId: string): Promise<AccessContext> {
    const generation = this.ref.current().number;
    const position = (await collections(this.ref).changes.findOne({ _id: userId }))?.position ?? 0;
    return this.contexts.contextFor(userId, { position, generation }, () => loadContext(this.ref, userId, {}));
  }

  async grantsOn(entityType: EntityType, entityId: string): Promise<GrantRecord[]> {
    return (await collections(this.ref).grants.find({ entityType, entityId }).sort({ createdAt: 1 }).toArray()).map(
      toGrant,
    );
  }

  async membersOf(ownerId: string): Promise<MemberRecord[]> {
    return (await collections(this.ref).members.find({ ownerId }).sort({ createdAt: 1 }).toArray()).map(toMember);
  }

  async membershipsOf(memberId: string): Promise<MemberRecord[]> {
    return (await collections(this.ref).members.find({ memberId }).sort({ createdAt: 1 }).toArray()).map(toMember);
  }

  async groupGrantsOn(entityType: EntityType, entityId: string): Promise<GroupGrantRecord[]> {
    return (
      await collections(this.ref).groupGrants.find({ entityType, entityId }).sort({ createdAt: 1 }).toArray()
    ).map(toGroupGrant);
  }

  async groupMembers(groupId: string, after: ListKey | null, limit: number): Promise<GroupMemberRecord[]> {
    return groupMembersAfter(this.ref, { groupId, after, limit }, {});
  }

  async isGroupMember(groupId: string, userId: string): Promise<boolean> {
    return (
      (await collections(this.ref).groupMembers.countDocuments(
        { _id: groupMemberKey(groupId, userId) },
        { limit: 1 },
      )) > 0
    );
  }
}
