import type Database from "better-sqlite3";
import { z } from "zod";
import type { GroupRecord, GroupsView, GroupsWriter } from "../../groups/groups.view.ts";
import type { ListKey } from "../../read-store/list-query.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS groups (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  name TEXT NOT NULL,
  member_count INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  position INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS groups_owner ON groups (owner_id, position, id);`;
export const groupsModel: SqliteModel = { schema, tables: ["groups"], queryIndexes: [] };

const rowSchema = z.object({
  id: z.string(),
  owner_id: z.string(),
  name: z.string(),
  member_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  position: z.number(),
});
const toRecord = (row: unknown): GroupRecord => {
  const r = rowSchema.parse(row);
  return {
    id: r.id,
    ownerId: r.owner_id,
    name: r.name,
    memberCount: r.member_count,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    position: r.position,
  };
};

/** SQLite allows 32,766 bound values; a caller's workspaces and groups stay far below, and are cut here to be sure. */
const MAX_IDS = 5_000;

export class SqliteGroupsWriter implements GroupsWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      put: db.prepare(
        `INSERT INTO groups (id, owner_id, name, member_count, created_at, updated_at, position)
         VALUES (@id, @ownerId, @name, @memberCount, @createdAt, @updatedAt, @position) ON CONFLICT (id) DO NOTHING`,
      ),
      rename: db.prepare<[string, string, string]>("UPDATE groups SET name = ?, updated_at = ? WHERE id = ?"),
      count: db.prepare<[number, string, string]>(
        "UPDATE groups SET member_count = max(0, member_count + ?), updated_at = ? WHERE id = ?",
      ),
      remove: db.prepare<[string]>("DELETE FROM groups WHERE id = ?"),
    };
  }

  async put(_tx: SqliteBatch, group: GroupRecord): Promise<void> {
    this.statements.put.run(group);
  }

  async rename(_tx: SqliteBatch, id: string, name: string, updatedAt: string): Promise<void> {
    this.statements.rename.run(name, updatedAt, id);
  }

  async countMembers(_tx: SqliteBatch, id: string, delta: 1 | -1, updatedAt: string): Promise<void> {
    this.statements.count.run(delta, updatedAt, id);
  }

  async remove(_tx: SqliteBatch, id: string): Promise<void> {
    this.statements.remove.run(id);
  }
}

export class SqliteGroupsView implements GroupsView {
  private readonly getStatement;

  constructor(private readonly db: Database.Database) {
    this.getStatement = db.prepare<[string]>("SELECT * FROM groups WHERE id = ?");
  }

  async get(id: string): Promise<GroupRecord | null> {
    const row = this.getStatement.get(id);
    return row === undefined ? null : toRecord(row);
  }

  async list(query: {
    ownerIds: readonly string[];
    groupIds: readonly string[];
    before: ListKey | null;
    limit: number;
  }): Promise<GroupRecord[]> {
    const ownerIds = query.ownerIds.slice(0, MAX_IDS);
    const groupIds = query.groupIds.slice(0, MAX_IDS);
    if (ownerIds.length === 0 && groupIds.length === 0) return [];
    const sources = [
      ...(ownerIds.length > 0 ? [`owner_id IN (${ownerIds.map(() => "?").join(", ")})`] : []),
      ...(groupIds.length > 0 ? [`id IN (${groupIds.map(() => "?").join(", ")})`] : []),
    ];
    const before = query.before ?? { position: Number.MAX_SAFE_INTEGER, id: "" };
    // Newest first: strictly below the cursor's (position, id); "" as the id resumes below the position.
    const sql = `SELECT * FROM groups WHERE (${sources.join(" OR ")})
      AND (position < ? OR (position = ? AND ? <> '' AND id < ?)) ORDER BY position DESC, id DESC LIMIT CAST(? AS INTEGER)`;
    const rows = this.db
      .prepare(sql)
      .all(...ownerIds, ...groupIds, before.position, before.position, before.id, before.id, query.limit);
    return rows.map(toRecord);
  }
}
