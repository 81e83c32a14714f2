// The trash in SQLite: one row per deleted item until it is restored or purged, and one row per folder above it
// in trash_ancestors, by which a grantee of that folder finds it.
import type Database from "better-sqlite3";
import { z } from "zod";
import {
  ancestorsBelow,
  type TrashItem,
  type TrashSources,
  type TrashType,
  type TrashView,
  type TrashWriter,
} from "../../trash/trash.view.ts";
import { decodeIds, encodeIds } from "./id-list.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS trash (
  type TEXT NOT NULL,
  id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  title TEXT NOT NULL,
  parent_id TEXT,
  ancestor_ids TEXT NOT NULL,
  deleted_at TEXT NOT NULL,
  deleted_by TEXT NOT NULL,
  deleted_with TEXT,
  position INTEGER NOT NULL,
  PRIMARY KEY (type, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS trash_ancestors (
  folder_id TEXT NOT NULL,
  type TEXT NOT NULL,
  id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (folder_id, type, id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS trash_owner ON trash (owner_id, position DESC) WHERE deleted_with IS NULL;
CREATE INDEX IF NOT EXISTS trash_with ON trash (deleted_with) WHERE deleted_with IS NOT NULL;
CREATE INDEX IF NOT EXISTS trash_deleted_at ON trash (deleted_at);
CREATE INDEX IF NOT EXISTS trash_ancestors_folder ON trash_ancestors (folder_id, position DESC);`;
// trash_ancestors' own key serves the writer (what lies below a moved folder), so it stays during a rebuild.
export const trashModel: SqliteModel = {
  schema,
  tables: ["trash", "trash_ancestors"],
  queryIndexes: ["trash_owner", "trash_with", "trash_deleted_at", "trash_ancestors_folder"],
};

const rowSchema = z.object({
  type: z.enum(["page", "folder"]),
  id: z.string(),
  owner_id: z.string(),
  title: z.string(),
  parent_id: z.string().nullable(),
  ancestor_ids: z.string(),
  deleted_at: z.string(),
  deleted_by: z.string(),
  deleted_with: z.string().nullable(),
  position: z.number(),
});

const toItem = (row: unknown): TrashItem => {
  const r = rowSchema.parse(row);
  return {
    type: r.type,
    id: r.id,
    ownerId: r.owner_id,
    title: r.title,
    parentId: r.parent_id,
    ancestorIds: decodeIds(r.ancestor_ids),
    deletedAt: r.deleted_at,
    deletedBy: r.deleted_by,
    deletedWith: r.deleted_with,
    position: r.position,
  };
};

export class SqliteTrashWriter implements TrashWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      put: db.prepare(
        `INSERT OR REPLACE INTO trash (type, id, owner_id, title, parent_id, ancestor_ids, deleted_at, deleted_by, deleted_with, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      remove: db.prepare<[string, string]>("DELETE FROM trash WHERE type = ? AND id = ?"),
      removeAncestors: db.prepare<[string, string]>("DELETE FROM trash_ancestors WHERE type = ? AND id = ?"),
      ancestor: db.prepare<[string, string, string, number]>(
        "INSERT OR REPLACE INTO trash_ancestors (folder_id, type, id, position) VALUES (?, ?, ?, ?)",
      ),
      below: db.prepare<[string], unknown>(
        "SELECT t.* FROM trash_ancestors a JOIN trash t ON t.type = a.type AND t.id = a.id WHERE a.folder_id = ?",
      ),
      setAncestors: db.prepare<[string, string, string]>("UPDATE trash SET ancestor_ids = ? WHERE type = ? AND id = ?"),
    };
  }

  private placeAncestors(item: Pick<TrashItem, "type" | "id" | "position" | "ancestorIds">): void {
    this.statements.removeAncestors.run(item.type, item.id);
    for (const folderId of item.ancestorIds) this.statements.ancestor.run(folderId, item.type, item.id, item.position);
  }

  async put(_tx: SqliteBatch, i: TrashItem): Promise<void> {
    this.statements.put.run(
      i.type,
      i.id,
      i.ownerId,
      i.title,
      i.parentId,
      encodeIds(i.ancestorIds),
      i.deletedAt,
      i.deletedBy,
      i.deletedWith,
      i.position,
    );
    this.placeAncestors(i);
  }

  async remove(_tx: SqliteBatch, type: TrashType, id: string): Promise<void> {
    this.statements.remove.run(type, id);
    this.statements.removeAncestors.run(type, id);
  }

  async placeBelow(
    _tx: SqliteBatch,
    folder: { readonly id: string; readonly ancestorIds: readonly string[] },
  ): Promise<void> {
    for (const row of this.statements.below.all(folder.id)) {
      const item = toItem(row);
      const ancestorIds = ancestorsBelow(item.ancestorIds, folder);
      this.statements.setAncestors.run(encodeIds(ancestorIds), item.type, item.id);
      this.placeAncestors({ ...item, ancestorIds });
    }
  }
}

const byPosition = (a: TrashItem, b: TrashItem): number => b.position - a.position;

export class SqliteTrashView implements TrashView {
  private readonly statements;
  private readonly snapshot: <T>(read: () => T) => T;

  constructor(db: Database.Database) {
    this.snapshot = <T>(read: () => T): T => db.transaction(read)();
    this.statements = {
      byOwners: db.prepare<[string, number, number], unknown>(
        "SELECT * FROM trash WHERE owner_id IN (SELECT value FROM json_each(?)) AND deleted_with IS NULL AND position < ? ORDER BY position DESC LIMIT ?",
      ),
      // One folder at a time, each newest first through trash_ancestors_folder: at most `limit` rows per folder.
      belowFolder: db.prepare<[string, number, number], unknown>(
        `SELECT t.* FROM trash_ancestors a JOIN trash t ON t.type = a.type AND t.id = a.id
         WHERE a.folder_id = ? AND a.position < ? AND t.deleted_with IS NULL ORDER BY a.position DESC LIMIT ?`,
      ),
      byKeys: db.prepare<[string, number], unknown>(
        `SELECT t.* FROM json_each(?) k JOIN trash t ON t.type = k.value ->> 0 AND t.id = k.value ->> 1
         WHERE t.deleted_with IS NULL AND t.position < ?`,
      ),
      get: db.prepare<[string, string], unknown>("SELECT * FROM trash WHERE type = ? AND id = ?"),
      deletedWith: db.prepare<[string], unknown>("SELECT * FROM trash WHERE deleted_with = ?"),
      expired: db.prepare<[string, number], unknown>(
        "SELECT * FROM trash WHERE deleted_at < ? ORDER BY deleted_at LIMIT ?",
      ),
    };
  }

  async get(type: TrashType, id: string): Promise<TrashItem | null> {
    const row = this.statements.get.get(type, id);
    return row === undefined ? null : toItem(row);
  }

  async list(sources: TrashSources, before: number | null, limit: number): Promise<TrashItem[]> {
    const upTo = before ?? Number.MAX_SAFE_INTEGER;
    const rows = this.snapshot(() => [
      ...(sources.ownerIds.length > 0
        ? this.statements.byOwners.all(JSON.stringify(sources.ownerIds), upTo, limit)
        : []),
      ...sources.folderIds.flatMap((folderId) => this.statements.belowFolder.all(folderId, upTo, limit)),
      ...(sources.folderIds.length + sources.pageIds.length > 0
        ? this.statements.byKeys.all(
            JSON.stringify([
              ...sources.folderIds.map((id) => ["folder", id]),
              ...sources.pageIds.map((id) => ["page", id]),
            ]),
            upTo,
          )
        : []),
    ]);
    // Every deletion has its own position: the newest `limit` of the union are the newest of all sources.
    const unique = new Map(rows.map(toItem).map((item) => [item.position, item]));
    return [...unique.values()].sort(byPosition).slice(0, limit);
  }

  async deletedWith(folderId: string): Promise<TrashItem[]> {
    return this.statements.deletedWith.all(folderId).map(toItem);
  }

  async expired(deletedBefore: string, limit: number): Promise<TrashItem[]> {
    return this.statements.expired.all(deletedBefore, limit).map(toItem);
  }
}
