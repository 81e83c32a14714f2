// Grants, workspace memberships and, per user, the position of the last change to their access: a query node
// keeps each user's access context until that position moves (shared/access/access-context-cache.ts).
import { z } from "zod";
import { AccessContextCache } from "../../access/access-context-cache.ts";
import { accessContextOf, type AccessContext } from "../../access/access-context.ts";
import type { AccessView, AccessWriter, EntityType, GrantRecord, MemberRecord } from "../../access/access.view.ts";
import { grantablePermissionSchema, workspaceRoleSchema, type WorkspaceRole } from "../../kernel/permissions.ts";
import type { CacheMetrics } from "../../metrics/metrics.port.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

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
const memberSchema = z.object({ _id: z.string(), id: z.string(), ownerId: z.string(), memberId: z.string(), role: workspaceRoleSchema, createdAt: z.string() });
type GrantDoc = z.infer<typeof grantSchema>;
type MemberDoc = z.infer<typeof memberSchema>;
type ChangeDoc = { _id: string; position: number };

export const accessModel: MongoModel = {
  collections: ["grants", "members", "access_changes"],
  indexes: [
    { collection: "grants", name: "grants_user", keys: { userId: 1 }, serves: "a user's grants, for their access context" },
    { collection: "grants", name: "grants_entity", keys: { entityType: 1, entityId: 1, createdAt: 1 }, serves: "GET /pages|folders/{id}/permissions" },
    { collection: "members", name: "members_member", keys: { memberId: 1, createdAt: 1 }, serves: "a user's workspace roles, for their access context" },
    { collection: "members", name: "members_owner", keys: { ownerId: 1, createdAt: 1 }, serves: "GET /workspace/members" },
  ],
};

const grantKey = (userId: string, entityType: EntityType, entityId: string) => `${userId}|${entityType}|${entityId}`;
const memberKey = (ownerId: string, memberId: string) => `${ownerId}|${memberId}`;
const toGrant = (doc: unknown): GrantRecord => {
  const { _id, ...grant } = grantSchema.parse(doc);
  return grant;
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
  };
};

export class MongoAccessWriter implements AccessWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  /** `$max`: a batch applied again never moves a user's change position back. */
  private async changed(tx: MongoBatch, userId: string, position: number): Promise<void> {
    await collections(this.ref).changes.updateOne({ _id: userId }, { $max: { position } }, { upsert: true, ...tx.options });
  }

  async putGrant(tx: MongoBatch, grant: GrantRecord, position: number): Promise<void> {
    const { createdAt, ...rest } = grant;
    const _id = grantKey(grant.userId, grant.entityType, grant.entityId);
    await collections(this.ref).grants.updateOne({ _id }, { $set: rest, $setOnInsert: { createdAt } }, { upsert: true, ...tx.options });
    await this.changed(tx, grant.userId, position);
  }

  async removeGrant(tx: MongoBatch, entityType: EntityType, entityId: string, userId: string, position: number): Promise<void> {
    await collections(this.ref).grants.deleteOne({ _id: grantKey(userId, entityType, entityId) }, tx.options);
    await this.changed(tx, userId, position);
  }

  async removeEntity(tx: MongoBatch, entityType: EntityType, entityId: string, position: number): Promise<void> {
    const grants = await collections(this.ref).grants.find({ entityType, entityId }, { projection: { userId: 1 }, ...tx.options }).toArray();
    if (grants.length === 0) return;
    // Access changes first: applied again after a crash, the batch still finds the grants whose users to mark.
    for (const { userId } of grants) await this.changed(tx, userId, position);
    await collections(this.ref).grants.deleteMany({ entityType, entityId }, tx.options);
  }

  async putMember(tx: MongoBatch, member: MemberRecord, position: number): Promise<void> {
    const { role, ...rest } = member;
    const _id = memberKey(member.ownerId, member.memberId);
    await collections(this.ref).members.updateOne({ _id }, { $set: { role }, $setOnInsert: rest }, { upsert: true, ...tx.options });
    await this.changed(tx, member.memberId, position);
  }

  async changeRole(tx: MongoBatch, ownerId: string, memberId: string, role: WorkspaceRole, position: number): Promise<void> {
    await collections(this.ref).members.updateOne({ _id: memberKey(ownerId, memberId) }, { $set: { role } }, tx.options);
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
    const { changes, grants, members } = collections(this.ref);
    const position = (await changes.findOne({ _id: userId }))?.position ?? 0;
    return this.contexts.contextFor(userId, { position, generation }, async () => {
      const userGrants = (await grants.find({ userId }).toArray()).map(toGrant);
      const roles = (await members.find({ memberId: userId }).toArray()).map(toMember);
      return accessContextOf(userId, userGrants, roles);
    });
  }

  async grantsOn(entityType: EntityType, entityId: string): Promise<GrantRecord[]> {
    return (await collections(this.ref).grants.find({ entityType, entityId }).sort({ createdAt: 1 }).toArray()).map(toGrant);
  }

  async membersOf(ownerId: string): Promise<MemberRecord[]> {
    return (await collections(this.ref).members.find({ ownerId }).sort({ createdAt: 1 }).toArray()).map(toMember);
  }

  async membershipsOf(memberId: string): Promise<MemberRecord[]> {
    return (await collections(this.ref).members.find({ memberId }).sort({ createdAt: 1 }).toArray()).map(toMember);
  }
}
