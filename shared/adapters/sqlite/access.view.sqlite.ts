import type Database from "better-sqlite3";
import { storedPermission, storedRole } from "../../kernel/permissions.ts";
import type { AccessContext } from "../../access/effective-permission.ts";
import type { AccessView, EntityType, GrantRecord, MemberRecord } from "../../access/access.view.ts";

export const accessSchema = `
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
CREATE TABLE IF NOT EXISTS access_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
INSERT OR IGNORE INTO access_version (id, version) VALUES (1, 0);`;

/** Access contexts are remembered per user until any grant or membership changes (access_version moves). */
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

export class SqliteAccessView implements AccessView {
  private readonly statements;
  private readonly contexts = new Map<string, AccessContext>();
  private cachedVersion = -1;

  constructor(db: Database.Database) {
    this.statements = {
      version: db.prepare<[], number>("SELECT version FROM access_version WHERE id = 1"),
      bumpVersion: db.prepare("UPDATE access_version SET version = version + 1 WHERE id = 1"),
      grantsOfUser: db.prepare<[string], Pick<GrantRow, "entity_type" | "entity_id" | "permission">>(
        "SELECT entity_type, entity_id, permission FROM grants WHERE user_id = ?",
      ),
      rolesOfMember: db.prepare<[string], Pick<MemberRow, "owner_id" | "role">>("SELECT owner_id, role FROM workspace_members WHERE member_id = ?"),
      rolesOfUser: db.prepare<[string], MemberRow>("SELECT * FROM workspace_members WHERE member_id = ? ORDER BY created_at"),
      putGrant: db.prepare(
        `INSERT INTO grants (user_id, entity_type, entity_id, permission, granted_by, created_at, updated_at)
         VALUES (@userId, @entityType, @entityId, @permission, @grantedBy, @createdAt, @updatedAt)
         ON CONFLICT (user_id, entity_type, entity_id) DO UPDATE SET permission = excluded.permission,
           granted_by = excluded.granted_by, updated_at = excluded.updated_at`,
      ),
      removeGrant: db.prepare("DELETE FROM grants WHERE entity_type = ? AND entity_id = ? AND user_id = ?"),
      grantsOn: db.prepare<[string, string], GrantRow>("SELECT * FROM grants WHERE entity_type = ? AND entity_id = ? ORDER BY created_at"),
      putMember: db.prepare(
        `INSERT INTO workspace_members (id, owner_id, member_id, role, created_at) VALUES (@id, @ownerId, @memberId, @role, @createdAt)
         ON CONFLICT (owner_id, member_id) DO UPDATE SET role = excluded.role`,
      ),
      removeMember: db.prepare("DELETE FROM workspace_members WHERE owner_id = ? AND member_id = ?"),
      membersOf: db.prepare<[string], MemberRow>("SELECT * FROM workspace_members WHERE owner_id = ? ORDER BY created_at"),
    };
  }

  async contextFor(userId: string): Promise<AccessContext> {
    const version = this.statements.version.pluck().get() ?? -1;
    if (version !== this.cachedVersion) {
      this.contexts.clear();
      this.cachedVersion = version;
    }
    const cached = this.contexts.get(userId);
    if (cached) return cached;
    if (this.contexts.size >= CONTEXT_CACHE_LIMIT) this.contexts.clear();
    const context = this.loadContext(userId);
    this.contexts.set(userId, context);
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

  async putGrant(grant: GrantRecord): Promise<void> {
    this.statements.putGrant.run(grant);
    this.statements.bumpVersion.run();
  }

  async removeGrant(entityType: EntityType, entityId: string, userId: string): Promise<void> {
    this.statements.removeGrant.run(entityType, entityId, userId);
    this.statements.bumpVersion.run();
  }

  async grantsOn(entityType: EntityType, entityId: string): Promise<GrantRecord[]> {
    return this.statements.grantsOn.all(entityType, entityId).map(toGrant);
  }

  async putMember(member: MemberRecord): Promise<void> {
    this.statements.putMember.run(member);
    this.statements.bumpVersion.run();
  }

  async removeMember(ownerId: string, memberId: string): Promise<void> {
    this.statements.removeMember.run(ownerId, memberId);
    this.statements.bumpVersion.run();
  }

  async membersOf(ownerId: string): Promise<MemberRecord[]> {
    return this.statements.membersOf.all(ownerId).map(toMember);
  }

  async membershipsOf(memberId: string): Promise<MemberRecord[]> {
    return this.statements.rolesOfUser.all(memberId).map(toMember);
  }
}
