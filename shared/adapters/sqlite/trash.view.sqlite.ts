// The trash in SQLite: one row per deleted item until it is restored or purged.
import type Database from "better-sqlite3";
import { z } from "zod";
import type { TrashItem, TrashType, TrashView, TrashWriter } from "../../trash/trash.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS trash (
  type TEXT NOT NULL,
  id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  title TEXT NOT NULL,
  parent_id TEXT,
  deleted_at TEXT NOT NULL,
  deleted_by TEXT NOT NULL,
  deleted_with TEXT,
  position INTEGER NOT NULL,
  PRIMARY KEY (type, id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS trash_owner ON trash (owner_id, position DESC) WHERE deleted_with IS NULL;
CREATE INDEX IF NOT EXISTS trash_with ON trash (deleted_with) WHERE deleted_with IS NOT NULL;
CREATE INDEX IF NOT EXISTS trash_deleted_at ON trash (deleted_at);`;
export const trashModel: SqliteModel = { schema, tables: ["trash"], queryIndexes: ["trash_owner", "trash_with", "trash_deleted_at"] };

const rowSchema = z.object({
  type: z.enum(["page", "folder"]),
  id: z.string(),
  owner_id: z.string(),
  title: z.string(),
  parent_id: z.string().nullable(),
  deleted_at: z.string(),
  deleted_by: z.string(),
  deleted_with: z.string().nullable(),
  position: z.number(),
});

const toItem = (row: unknown): TrashItem => {
  const r = rowSchema.parse(row);
  return { type: r.type, id: r.id, ownerId: r.owner_id, title: r.title, parentId: r.parent_id, deletedAt: r.deleted_at, deletedBy: r.deleted_by, deletedWith: r.deleted_with, position: r.position };
};

export class SqliteTrashWriter implements TrashWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      put: db.prepare(
        `INSERT OR REPLACE INTO trash (type, id, owner_id, title, parent_id, deleted_at, deleted_by, deleted_with, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      remove: db.prepare<[string, string]>("DELETE FROM trash WHERE type = ? AND id = ?"),
    };
  }

  async put(_tx: SqliteBatch, i: TrashItem): Promise<void> {
    this.statements.put.run(i.type, i.id, i.ownerId, i.title, i.parentId, i.deletedAt, i.deletedBy, i.deletedWith, i.position);
  }

  async remove(_tx: SqliteBatch, type: TrashType, id: string): Promise<void> {
    this.statements.remove.run(type, id);
  }
}

export class SqliteTrashView implements TrashView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      list: db.prepare<[string, number, number], unknown>(
        "SELECT * FROM trash WHERE owner_id IN (SELECT value FROM json_each(?)) AND deleted_with IS NULL AND position < ? ORDER BY position DESC LIMIT ?",
      ),
      get: db.prepare<[string, string], unknown>("SELECT * FROM trash WHERE type = ? AND id = ?"),
      deletedWith: db.prepare<[string], unknown>("SELECT * FROM trash WHERE deleted_with = ?"),
      expired: db.prepare<[string, number], unknown>("SELECT * FROM trash WHERE deleted_at < ? ORDER BY deleted_at LIMIT ?"),
    };
  }

  async get(type: TrashType, id: string): Promise<TrashItem | null> {
    const row = this.statements.get.get(type, id);
    return row === undefined ? null : toItem(row);
  }

  async list(ownerIds: readonly string[], before: number | null, limit: number): Promise<TrashItem[]> {
    if (ownerIds.length === 0) return [];
    return this.statements.list.all(JSON.stringify(ownerIds), before ?? Number.MAX_SAFE_INTEGER, limit).map(toItem);
  }

  async deletedWith(folderId: string): Promise<TrashItem[]> {
    return this.statements.deletedWith.all(folderId).map(toItem);
  }

  async expired(deletedBefore: string, limit: number): Promise<TrashItem[]> {
    return this.statements.expired.all(deletedBefore, limit).map(toItem);
  }
}
