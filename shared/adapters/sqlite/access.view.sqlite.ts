import type Database from "better-sqlite3";
import { storedPermission, storedRole, type WorkspaceRole } from "../../kernel/permissions.ts";
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
import type { CacheMetrics } from "../../metrics/metrics.port.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";
import type { SqlitePageAudience } from "./page-audience.sqlite.ts";

const schema = `
CREATE TABLE IF NOT EXISTS grants (
  user_id TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  permission TEXT NOT NULL,
  granted_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (user_id, entity_type, entity_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS grants_entity ON grants (entity_type, entity_id);
CREATE TABLE IF NOT EXISTS workspace_members (
  id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  member_id TEXT NOT NULL,
  role TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (owner_id, member_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS workspace_members_member ON workspace_members (member_id);
CREATE TABLE IF NOT EXISTS group_members (
  group_id TEXT NOT NULL,
  member_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (group_id, member_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS group_members_member ON group_members (member_id);
CREATE INDEX IF NOT EXISTS group_members_order ON group_members (group_id, position, member_id);
CREATE TABLE IF NOT EXISTS group_grants (
  group_id TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  permission TEXT NOT NULL,
  granted_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (group_id, entity_type, entity_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS group_grants_entity ON group_grants (entity_type, entity_id);
CREATE TABLE IF NOT EXISTS group_roles (
  group_id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  role TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS access_changes (
  user_id TEXT PRIMARY KEY,
  position INTEGER NOT NULL
) WITHOUT ROWID;`;
export const accessModel: SqliteModel = {
  schema,
  tables: ["grants", "workspace_members", "group_members", "group_grants", "group_roles", "access_changes"],
  queryIndexes: [],
};

type GrantRow = {
  user_id: string;
  entity_type: string;
  entity_id: string;
  permission: string;
  granted_by: string;
  created_at: string;
  updated_at: string;
};
type MemberRow = { id: string; owner_id: string; member_id: string; role: string; created_at: string };
type GroupGrantRow = {
  group_id: string;
  entity_type: string;
  entity_id: string;
  permission: string;
  granted_by: string;
  created_at: string;
  updated_at: string;
};
type GroupMemberRow = { group_id: string; member_id: string; owner_id: string; position: number; created_at: string };

const toGrant = (row: GrantRow): GrantRecord => ({
  entityType: row.entity_type === "folder" ? "folder" : "page",
  entityId: row.entity_id,
  userId: row.user_id,
  permission: storedPermission(row.permission),
  grantedBy: row.granted_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
const toGroupGrant = (row: GroupGrantRow): GroupGrantRecord => ({
  entityType: row.entity_type === "folder" ? "folder" : "page",
  entityId: row.entity_id,
  groupId: row.group_id,
  permission: storedPermission(row.permission),
  grantedBy: row.granted_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
const toGroupMember = (row: GroupMemberRow): GroupMemberRecord => ({
  groupId: row.group_id,
  memberId: row.member_id,
  ownerId: row.owner_id,
  position: row.position,
  createdAt: row.created_at,
});
const toMember = (row: MemberRow): MemberRecord => ({
  id: row.id,
  ownerId: row.owner_id,
  memberId: row.member_id,
  role: storedRole(row.role),
  createdAt: row.created_at,
});

export class SqliteAccessWriter implements AccessWriter<SqliteBatch> {
  private readonly statements;
  /** Reads on the projector's own connection: they see the batch's changes so far. */
  private readonly reader: SqliteAccessView;

  /** `audience`: the per-user page listing (page-audience.sqlite.ts), told whose grants changed. */
  constructor(
    db: Database.Database,
    private readonly audience: SqlitePageAudience,
  ) {
    this.reader = new SqliteAccessView(db);
    this.statements = {
      changed: db.prepare<[string, number]>(
        "INSERT INTO access_changes (user_id, position) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET position = excluded.position",
      ),
      putGrant: db.prepare(
        `INSERT INTO grants (user_id, entity_type, entity_id, permission, granted_by, created_at, updated_at)
         VALUES (@userId, @entityType, @entityId, @permission, @grantedBy, @createdAt, @updatedAt)
         ON CONFLICT (user_id, entity_type, entity_id) DO UPDATE SET permission = excluded.permission,
           granted_by = excluded.granted_by, updated_at = excluded.updated_at`,
      ),
      removeGrant: db.prepare("DELETE FROM grants WHERE entity_type = ? AND entity_id = ? AND user_id = ?"),
      putMember: db.prepare(
        `INSERT INTO workspace_members (id, owner_id, member_id, role, created_at) VALUES (@id, @ownerId, @memberId, @role, @createdAt)
         ON CONFLICT (owner_id, member_id) DO UPDATE SET role = excluded.role`,
      ),
      changeRole: db.prepare("UPDATE workspace_members SET role = ? WHERE owner_id = ? AND member_id = ?"),
      removeMember: db.prepare("DELETE FROM workspace_members WHERE owner_id = ? AND member_id = ?"),
      removeEntity: db
        .prepare<[string, string], string>(
          "DELETE FROM grants WHERE entity_type = ? AND entity_id = ? RETURNING user_id",
        )
        .pluck(),
      removeEntityGroups: db
        .prepare<[string, string], string>(
          "DELETE FROM group_grants WHERE entity_type = ? AND entity_id = ? RETURNING group_id",
        )
        .pluck(),
      // One statement records the change against every member of the group: a group's grant is each member's access.
      groupChanged: db.prepare<[number, string]>(
        `INSERT INTO access_changes (user_id, position) SELECT member_id, ? FROM group_members WHERE group_id = ? AND true
         ON CONFLICT (user_id) DO UPDATE SET position = excluded.position`,
      ),
      putGroupGrant: db.prepare(
        `INSERT INTO group_grants (group_id, entity_type, entity_id, permission, granted_by, created_at, updated_at)
         VALUES (@groupId, @entityType, @entityId, @permission, @grantedBy, @createdAt, @updatedAt)
         ON CONFLICT (group_id, entity_type, entity_id) DO UPDATE SET permission = excluded.permission,
           granted_by = excluded.granted_by, updated_at = excluded.updated_at`,
      ),
      removeGroupGrant: db.prepare("DELETE FROM group_grants WHERE entity_type = ? AND entity_id = ? AND group_id = ?"),
      putGroupMember: db.prepare(
        `INSERT INTO group_members (group_id, member_id, owner_id, position, created_at) VALUES (@groupId, @memberId, @ownerId, @position, @createdAt)
         ON CONFLICT (group_id, member_id) DO NOTHING`,
      ),
      removeGroupMember: db.prepare("DELETE FROM group_members WHERE group_id = ? AND member_id = ?"),
      putGroupRole: db.prepare(
        "INSERT INTO group_roles (group_id, owner_id, role) VALUES (?, ?, ?) ON CONFLICT (group_id) DO UPDATE SET role = excluded.role",
      ),
      removeGroupRole: db.prepare("DELETE FROM group_roles WHERE group_id = ?"),
      removeGroupMembers: db.prepare("DELETE FROM group_members WHERE group_id = ?"),
      removeGroupGrants: db.prepare("DELETE FROM group_grants WHERE group_id = ?"),
    };
  }

  async contextFor(_tx: SqliteBatch, userId: string): Promise<AccessContext> {
    return this.reader.freshContext(userId);
  }

  async groupMembers(
    _tx: SqliteBatch,
    groupId: string,
    after: ListKey | null,
    limit: number,
  ): Promise<GroupMemberRecord[]> {
    return this.reader.groupMembers(groupId, after, limit);
  }

  async putGrant(tx: SqliteBatch, grant: GrantRecord, position: number): Promise<void> {
    this.statements.putGrant.run(grant);
    this.audience.grantAdded(tx, { userId: grant.userId }, grant.entityType, grant.entityId);
    this.statements.changed.run(grant.userId, position);
  }

  async removeGrant(
    tx: SqliteBatch,
    entityType: EntityType,
    entityId: string,
    userId: string,
    position: number,
  ): Promise<void> {
    this.statements.removeGrant.run(entityType, entityId, userId);
    this.audience.userChanged(tx, userId);
    this.statements.changed.run(userId, position);
  }

  async removeEntity(tx: SqliteBatch, entityType: EntityType, entityId: string, position: number): Promise<void> {
    for (const userId of this.statements.removeEntity.all(entityType, entityId)) {
      this.statements.changed.run(userId, position);
      this.audience.userChanged(tx, userId);
    }
    for (const groupId of this.statements.removeEntityGroups.all(entityType, entityId)) {
      this.statements.groupChanged.run(position, groupId);
      this.audience.groupChanged(tx, groupId);
    }
  }

  async putGroupGrant(tx: SqliteBatch, grant: GroupGrantRecord, position: number): Promise<void> {
    this.statements.putGroupGrant.run(grant);
    this.audience.grantAdded(tx, { groupId: grant.groupId }, grant.entityType, grant.entityId);
    this.statements.groupChanged.run(position, grant.groupId);
  }

  async removeGroupGrant(
    tx: SqliteBatch,
    entityType: EntityType,
    entityId: string,
    groupId: string,
    position: number,
  ): Promise<void> {
    this.statements.removeGroupGrant.run(entityType, entityId, groupId);
    this.audience.groupChanged(tx, groupId);
    this.statements.groupChanged.run(position, groupId);
  }

  async putGroupMember(tx: SqliteBatch, member: GroupMemberRecord, position: number): Promise<void> {
    this.statements.putGroupMember.run(member);
    this.audience.userChanged(tx, member.memberId);
    this.statements.changed.run(member.memberId, position);
  }

  async removeGroupMember(tx: SqliteBatch, groupId: string, memberId: string, position: number): Promise<void> {
    this.statements.removeGroupMember.run(groupId, memberId);
    this.audience.userChanged(tx, memberId);
    this.statements.changed.run(memberId, position);
  }

  async setGroupRole(
    _tx: SqliteBatch,
    groupId: string,
    ownerId: string,
    role: WorkspaceRole | null,
    position: number,
  ): Promise<void> {
    if (role === null) this.statements.removeGroupRole.run(groupId);
    else this.statements.putGroupRole.run(groupId, ownerId, role);
    this.statements.groupChanged.run(position, groupId);
  }

  async removeGroup(tx: SqliteBatch, groupId: string, position: number): Promise<void> {
    // Members first learn of the change, then lose the rows that gave it.
    this.statements.groupChanged.run(position, groupId);
    this.audience.groupChanged(tx, groupId);
    this.statements.removeGroupGrants.run(groupId);
    this.statements.removeGroupRole.run(groupId);
    this.statements.removeGroupMembers.run(groupId);
  }

  async putMember(_tx: SqliteBatch, member: MemberRecord, position: number): Promise<void> {
    this.statements.putMember.run(member);
    this.statements.changed.run(member.memberId, position);
  }

  async changeRole(
    _tx: SqliteBatch,
    ownerId: string,
    memberId: string,
    role: WorkspaceRole,
    position: number,
  ): Promise<void> {
    this.statements.changeRole.run(role, ownerId, memberId);
    this.statements.changed.run(memberId, position);
  }

  async removeMember(_tx: SqliteBatch, ownerId: string, memberId: string, position: number): Promise<void> {
    this.statements.removeMember.run(ownerId, memberId);
    this.statements.changed.run(memberId, position);
  }
}

export class SqliteAccessView implements AccessView {
  private readonly statements;
  private readonly contexts: AccessContextCache;

  /** Contexts are kept until the user's row in access_changes moves (shared/access/access-context-cache.ts). */
  constructor(db: Database.Database, cache?: CacheMetrics) {
    this.contexts = new AccessContextCache(cache);
    this.statements = {
      changedAt: db.prepare<[string], number>("SELECT position FROM access_changes WHERE user_id = ?").pluck(),
      grantsOfUser: db.prepare<[string], Pick<GrantRow, "entity_type" | "entity_id" | "permission">>(
        "SELECT entity_type, entity_id, permission FROM grants WHERE user_id = ?",
      ),
      rolesOfMember: db.prepare<[string], Pick<MemberRow, "owner_id" | "role">>(
        "SELECT owner_id, role FROM workspace_members WHERE member_id = ?",
      ),
      rolesOfUser: db.prepare<[string], MemberRow>(
        "SELECT * FROM workspace_members WHERE member_id = ? ORDER BY created_at",
      ),
      grantsOn: db.prepare<[string, string], GrantRow>(
        "SELECT * FROM grants WHERE entity_type = ? AND entity_id = ? ORDER BY created_at",
      ),
      membersOf: db.prepare<[string], MemberRow>(
        "SELECT * FROM workspace_members WHERE owner_id = ? ORDER BY created_at",
      ),
      groupIdsOf: db.prepare<[string], string>("SELECT group_id FROM group_members WHERE member_id = ?").pluck(),
      groupGrantsOfMember: db.prepare<[string], Pick<GroupGrantRow, "entity_type" | "entity_id" | "permission">>(
        "SELECT g.entity_type, g.entity_id, g.permission FROM group_members m JOIN group_grants g ON g.group_id = m.group_id WHERE m.member_id = ?",
      ),
      groupRolesOfMember: db.prepare<[string], { owner_id: string; role: string }>(
        "SELECT r.owner_id, r.role FROM group_members m JOIN group_roles r ON r.group_id = m.group_id WHERE m.member_id = ?",
      ),
      groupGrantsOn: db.prepare<[string, string], GroupGrantRow>(
        "SELECT * FROM group_grants WHERE entity_type = ? AND entity_id = ? ORDER BY created_at",
      ),
      groupMembersFirst: db.prepare<[string, number], GroupMemberRow>(
        "SELECT * FROM group_members WHERE group_id = ? ORDER BY position, member_id LIMIT CAST(? AS INTEGER)",
      ),
      groupMembersAfter: db.prepare<[string, number, string, number], GroupMemberRow>(
        "SELECT * FROM group_members WHERE group_id = ? AND (position, member_id) > (?, ?) ORDER BY position, member_id LIMIT CAST(? AS INTEGER)",
      ),
      isGroupMember: db
        .prepare<[string, string], number>("SELECT 1 FROM group_members WHERE group_id = ? AND member_id = ?")
        .pluck(),
    };
  }

  async contextFor(userId: string): Promise<AccessContext> {
    const position = this.statements.changedAt.get(userId) ?? 0;
    return this.contexts.contextFor(userId, { position }, () => this.freshContext(userId));
  }

  /** The context read now, past the cache. */
  freshContext(userId: string): AccessContext {
    const grantRows = [...this.statements.grantsOfUser.all(userId), ...this.statements.groupGrantsOfMember.all(userId)];
    const grants = grantRows.map((row) => ({
      entityType: row.entity_type === "folder" ? ("folder" as const) : ("page" as const),
      entityId: row.entity_id,
      permission: storedPermission(row.permission),
    }));
    const roles = [...this.statements.rolesOfMember.all(userId), ...this.statements.groupRolesOfMember.all(userId)].map(
      (row) => ({ ownerId: row.owner_id, role: storedRole(row.role) }),
    );
    return assembleContext(userId, { grants, roles, groupIds: this.statements.groupIdsOf.all(userId) });
  }

  async grantsOn(entityType: EntityType, entityId: string): Promise<GrantRecord[]> {
    return this.statements.grantsOn.all(entityType, entityId).map(toGrant);
  }

  async membersOf(ownerId: string): Promise<MemberRecord[]> {
    return this.statements.membersOf.all(ownerId).map(toMember);
  }

  async membershipsOf(memberId: string): Promise<MemberRecord[]> {
    return this.statements.rolesOfUser.all(memberId).map(toMember);
  }

  async groupGrantsOn(entityType: EntityType, entityId: string): Promise<GroupGrantRecord[]> {
    return this.statements.groupGrantsOn.all(entityType, entityId).map(toGroupGrant);
  }

  async groupMembers(groupId: string, after: ListKey | null, limit: number): Promise<GroupMemberRecord[]> {
    const rows =
      after === null
        ? this.statements.groupMembersFirst.all(groupId, limit)
        : this.statements.groupMembersAfter.all(groupId, after.position, after.id, limit);
    return rows.map(toGroupMember);
  }

  async isGroupMember(groupId: string, userId: string): Promise<boolean> {
    return this.statements.isGroupMember.get(groupId, userId) !== undefined;
  }
}
