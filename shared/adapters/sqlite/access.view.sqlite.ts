import type Database from "better-sqlite3";
import { storedPermission, storedRole, type WorkspaceRole } from "../../kernel/permissions.ts";
import type { AccessContext } from "../../access/access-context.ts";
import type { AccessView, AccessWriter, EntityType, GrantRecord, MemberRecord } from "../../access/access.view.ts";
import { unmeasuredCache, type CacheMetrics } from "../../metrics/metrics.port.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

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
CREATE TABLE IF NOT EXISTS access_changes (
  user_id TEXT PRIMARY KEY,
  position INTEGER NOT NULL
) WITHOUT ROWID;`;
export const accessModel: SqliteModel = { schema, tables: ["grants", "workspace_members", "access_changes"], queryIndexes: [] };

/**
 * Access contexts are remembered per user until that user's access changes (their row in access_changes
 * moves to the position of the change). The position, not a counter, is the version: a rebuild replays the
 * same positions to the same contexts, so a context cached before a rebuild is never wrong after it.
 */
const CONTEXT_CACHE_LIMIT = 10_000;

type GrantRow = { user_id: string; entity_type: string; entity_id: string; permission: string; granted_by: string; created_at: string; updated_at: string };
type MemberRow = { id: string; owner_id: string; member_id: string; role: string; created_at: string };

const toGrant = (row: GrantRow): GrantRecord => ({
  entityType: row.entity_type === "folder" ? "folder" : "page",
  entityId: row.entity_id,
  userId: row.user_id,
  permission: storedPermission(row.permission),
  grantedBy: row.granted_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
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

  constructor(db: Database.Database) {
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
      removeEntity: db.prepare<[string, string], string>("DELETE FROM grants WHERE entity_type = ? AND entity_id = ? RETURNING user_id").pluck(),
    };
  }

  async putGrant(_tx: SqliteBatch, grant: GrantRecord, position: number): Promise<void> {
    this.statements.putGrant.run(grant);
    this.statements.changed.run(grant.userId, position);
  }

  async removeGrant(_tx: SqliteBatch, entityType: EntityType, entityId: string, userId: string, position: number): Promise<void> {
    this.statements.removeGrant.run(entityType, entityId, userId);
    this.statements.changed.run(userId, position);
  }

  async removeEntity(_tx: SqliteBatch, entityType: EntityType, entityId: string, position: number): Promise<void> {
    for (const userId of this.statements.removeEntity.all(entityType, entityId)) this.statements.changed.run(userId, position);
  }

  async putMember(_tx: SqliteBatch, member: MemberRecord, position: number): Promise<void> {
    this.statements.putMember.run(member);
    this.statements.changed.run(member.memberId, position);
  }

  async changeRole(_tx: SqliteBatch, ownerId: string, memberId: string, role: WorkspaceRole, position: number): Promise<void> {
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
  private readonly contexts = new Map<string, { position: number; context: AccessContext }>();

  constructor(
    db: Database.Database,
    private readonly cache: CacheMetrics = unmeasuredCache,
  ) {
    this.statements = {
      changedAt: db.prepare<[string], number>("SELECT position FROM access_changes WHERE user_id = ?").pluck(),
      grantsOfUser: db.prepare<[string], Pick<GrantRow, "entity_type" | "entity_id" | "permission">>(
        "SELECT entity_type, entity_id, permission FROM grants WHERE user_id = ?",
      ),
      rolesOfMember: db.prepare<[string], Pick<MemberRow, "owner_id" | "role">>("SELECT owner_id, role FROM workspace_members WHERE member_id = ?"),
      rolesOfUser: db.prepare<[string], MemberRow>("SELECT * FROM workspace_members WHERE member_id = ? ORDER BY created_at"),
      grantsOn: db.prepare<[string, string], GrantRow>("SELECT * FROM grants WHERE entity_type = ? AND entity_id = ? ORDER BY created_at"),
      membersOf: db.prepare<[string], MemberRow>("SELECT * FROM workspace_members WHERE owner_id = ? ORDER BY created_at"),
    };
  }

  async contextFor(userId: string): Promise<AccessContext> {
    const position = this.statements.changedAt.get(userId) ?? 0;
    const cached = this.contexts.get(userId);
    if (cached && cached.position === position) {
      this.cache.hit();
      return cached.context;
    }
    this.cache.miss();
    if (this.contexts.size >= CONTEXT_CACHE_LIMIT) this.contexts.clear();
    const context = this.loadContext(userId);
    this.contexts.set(userId, { position, context });
    return context;
  }

  private loadContext(userId: string): AccessContext {
    const folderGrants = new Map<string, GrantRecord["permission"]>();
    const pageGrants = new Map<string, GrantRecord["permission"]>();
    for (const grant of this.statements.grantsOfUser.all(userId)) {
      (grant.entity_type === "folder" ? folderGrants : pageGrants).set(grant.entity_id, storedPermission(grant.permission));
    }
    const workspaceRoles = new Map(this.statements.rolesOfMember.all(userId).map((row) => [row.owner_id, storedRole(row.role)]));
    return { userId, workspaceRoles, folderGrants, pageGrants };
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
}
