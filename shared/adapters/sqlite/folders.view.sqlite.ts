import type Database from "better-sqlite3";
import { decodeIds, encodeIds } from "./id-list.ts";
import { LIST_START, type ListQuery } from "../../read-store/list-query.ts";
import type { Changed, FolderRecord, FoldersView, FoldersWriter } from "../../folders/folders.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";
import { reRooted } from "../../folders/folder-place.ts";

const schema = `
CREATE TABLE IF NOT EXISTS folders (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  parent_id TEXT,
  name TEXT NOT NULL,
  icon TEXT,
  ancestor_ids TEXT NOT NULL,
  path TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_pos INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS folders_updated ON folders (updated_pos);
CREATE INDEX IF NOT EXISTS folders_owner ON folders (owner_id, updated_pos, id);
CREATE INDEX IF NOT EXISTS folders_parent ON folders (parent_id);
CREATE TABLE IF NOT EXISTS folder_ancestors (
  folder_id TEXT NOT NULL,
  ancestor_id TEXT NOT NULL,
  PRIMARY KEY (folder_id, ancestor_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS folder_ancestors_ancestor ON folder_ancestors (ancestor_id, folder_id);`;
export const foldersModel: SqliteModel = {
  schema,
  tables: ["folders", "folder_ancestors"],
  queryIndexes: ["folders_updated", "folders_parent"],
};

/**
 * The newest visible folders, gathered from each way of seeing one (a workspace, a grant on it, a grant on a
 * folder above it) through its own index and cut to the limit: the work grows with what the caller can see.
 */
export const LIST_VISIBLE_FOLDERS = `
SELECT * FROM (
  SELECT * FROM (SELECT f.* FROM folders f
    WHERE f.owner_id IN (SELECT value FROM json_each(@owners)) AND (@parent IS NULL OR f.parent_id = @parent) AND (f.updated_pos, f.id) < (@before, @beforeId)
    ORDER BY f.updated_pos DESC, f.id DESC LIMIT CAST(@limit AS INTEGER))
  UNION
  SELECT * FROM (SELECT f.* FROM folders f
    WHERE f.id IN (SELECT value FROM json_each(@folders)) AND (@parent IS NULL OR f.parent_id = @parent) AND (f.updated_pos, f.id) < (@before, @beforeId)
    ORDER BY f.updated_pos DESC, f.id DESC LIMIT CAST(@limit AS INTEGER))
  UNION
  SELECT * FROM (SELECT DISTINCT f.* FROM folder_ancestors a JOIN folders f ON f.id = a.folder_id
    WHERE a.ancestor_id IN (SELECT value FROM json_each(@folders)) AND (@parent IS NULL OR f.parent_id = @parent) AND (f.updated_pos, f.id) < (@before, @beforeId)
    ORDER BY f.updated_pos DESC, f.id DESC LIMIT CAST(@limit AS INTEGER))
) ORDER BY updated_pos DESC, id DESC LIMIT CAST(@limit AS INTEGER)`;

type Row = {
  id: string;
  owner_id: string;
  parent_id: string | null;
  name: string;
  icon: string | null;
  ancestor_ids: string;
  path: string;
  created_at: string;
  updated_at: string;
  updated_pos: number;
};
const toRecord = (row: Row): FolderRecord => ({
  id: row.id,
  ownerId: row.owner_id,
  parentId: row.parent_id,
  name: row.name,
  icon: row.icon,
  ancestorIds: decodeIds(row.ancestor_ids),
  path: row.path,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  updatedPosition: row.updated_pos,
});

const GET_FOLDER = "SELECT * FROM folders WHERE id = ?";

export class SqliteFoldersWriter implements FoldersWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      put: db.prepare(
        `INSERT OR REPLACE INTO folders (id, owner_id, parent_id, name, icon, ancestor_ids, path, created_at, updated_at, updated_pos)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      ancestor: db.prepare("INSERT OR IGNORE INTO folder_ancestors (folder_id, ancestor_id) VALUES (?, ?)"),
      get: db.prepare<[string], Row>(GET_FOLDER),
      below: db.prepare<[string], Row>(
        "SELECT f.* FROM folder_ancestors a JOIN folders f ON f.id = a.folder_id WHERE a.ancestor_id = ?",
      ),
      setPlace: db.prepare<[{ id: string; ancestorIds: string; path: string }]>(
        "UPDATE folders SET ancestor_ids = @ancestorIds, path = @path WHERE id = @id",
      ),
      touch: db.prepare<[{ id: string; updatedAt: string; updatedPosition: number }]>(
        "UPDATE folders SET updated_at = @updatedAt, updated_pos = @updatedPosition WHERE id = @id",
      ),
      removeAncestors: db.prepare<[string]>("DELETE FROM folder_ancestors WHERE folder_id = ?"),
      remove: db.prepare<[string]>("DELETE FROM folders WHERE id = ?"),
    };
  }

  async place(_tx: SqliteBatch, folder: FolderRecord, descendantsChanged: Changed | null): Promise<void> {
    const before = this.statements.get.get(folder.id);
    this.statements.removeAncestors.run(folder.id);
    await this.put(_tx, folder);
    if (!before) return;
    for (const row of this.statements.below.all(folder.id)) {
      const { ancestorIds, path } = reRooted({ ancestorIds: decodeIds(row.ancestor_ids), path: row.path }, folder);
      this.statements.setPlace.run({ id: row.id, ancestorIds: encodeIds(ancestorIds), path });
      if (descendantsChanged) this.statements.touch.run({ id: row.id, ...descendantsChanged });
      this.statements.removeAncestors.run(row.id);
      for (const ancestorId of ancestorIds) this.statements.ancestor.run(row.id, ancestorId);
    }
  }

  async remove(_tx: SqliteBatch, id: string): Promise<void> {
    this.statements.remove.run(id);
    this.statements.removeAncestors.run(id);
  }

  async put(_tx: SqliteBatch, f: FolderRecord): Promise<void> {
    this.statements.put.run(
      f.id,
      f.ownerId,
      f.parentId,
      f.name,
      f.icon,
      encodeIds(f.ancestorIds),
      f.path,
      f.createdAt,
      f.updatedAt,
      f.updatedPosition,
    );
    for (const ancestorId of f.ancestorIds) this.statements.ancestor.run(f.id, ancestorId);
  }

  async get(_tx: SqliteBatch, id: string): Promise<FolderRecord | null> {
    const row = this.statements.get.get(id);
    return row ? toRecord(row) : null;
  }
}

export class SqliteFoldersView implements FoldersView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      get: db.prepare<[string], Row>(GET_FOLDER),
      list: db.prepare<
        [{ before: number; beforeId: string; owners: string; folders: string; limit: number; parent: string | null }],
        Row
      >(LIST_VISIBLE_FOLDERS),
      holdsAnything: db
        .prepare<[{ id: string }], number>(
          "SELECT EXISTS (SELECT 1 FROM folders WHERE parent_id = @id) OR EXISTS (SELECT 1 FROM pages WHERE parent_id = @id AND deleted = 0)",
        )
        .pluck(),
      foldersBelow: db.prepare<[string], Row>(
        "SELECT f.* FROM folder_ancestors a JOIN folders f ON f.id = a.folder_id WHERE a.ancestor_id = ?",
      ),
      pagesBelow: db
        .prepare<[string], string>(
          "SELECT a.page_id FROM page_ancestors a JOIN pages p ON p.id = a.page_id WHERE a.folder_id = ? AND p.deleted = 0",
        )
        .pluck(),
    };
  }

  async below(id: string): Promise<{ folders: FolderRecord[]; pageIds: string[] }> {
    return { folders: this.statements.foldersBelow.all(id).map(toRecord), pageIds: this.statements.pagesBelow.all(id) };
  }

  async isEmpty(id: string): Promise<boolean> {
    return this.statements.holdsAnything.get({ id }) === 0;
  }

  async get(id: string): Promise<FolderRecord | null> {
    const row = this.statements.get.get(id);
    return row ? toRecord(row) : null;
  }

  async list(query: ListQuery & { parentId?: string }): Promise<FolderRecord[]> {
    const rows = this.statements.list.all({
      parent: query.parentId ?? null,
      before: (query.before ?? LIST_START).position,
      beforeId: (query.before ?? LIST_START).id,
      owners: JSON.stringify(query.visibleTo.ownerIds),
      folders: JSON.stringify(query.visibleTo.folderIds),
      limit: query.limit + 1,
    });
    return rows.map(toRecord);
  }
}
