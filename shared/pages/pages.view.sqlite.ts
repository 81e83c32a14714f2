import type Database from "better-sqlite3";
import { z } from "zod";
import type { ListQuery } from "../read-store/list-query.ts";
import { titleKey, type PageChange, type PageContent, type PageRecord, type PagesView } from "./pages.view.ts";

export const pagesSchema = `
CREATE TABLE IF NOT EXISTS pages (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  parent_id TEXT,
  title TEXT NOT NULL,
  title_key TEXT NOT NULL,
  icon TEXT,
  ancestor_ids TEXT NOT NULL,
  folder_path TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_pos INTEGER NOT NULL,
  revision INTEGER NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS pages_updated ON pages (updated_pos) WHERE deleted = 0;
CREATE INDEX IF NOT EXISTS pages_parent ON pages (parent_id, updated_pos) WHERE deleted = 0;
CREATE INDEX IF NOT EXISTS pages_title ON pages (title_key) WHERE deleted = 0;
CREATE INDEX IF NOT EXISTS pages_owner ON pages (owner_id, updated_pos) WHERE deleted = 0;
CREATE TABLE IF NOT EXISTS page_ancestors (
  page_id TEXT NOT NULL,
  folder_id TEXT NOT NULL,
  PRIMARY KEY (page_id, folder_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS page_ancestors_folder ON page_ancestors (folder_id, page_id);
CREATE TABLE IF NOT EXISTS page_contents (
  page_id TEXT PRIMARY KEY,
  markdown TEXT NOT NULL
);`;

type Row = {
  id: string;
  owner_id: string;
  parent_id: string | null;
  title: string;
  icon: string | null;
  ancestor_ids: string;
  folder_path: string;
  created_at: string;
  updated_at: string;
  updated_pos: number;
  revision: number;
};
const idsSchema = z.array(z.string());
const toRecord = (row: Row): PageRecord => ({
  id: row.id,
  ownerId: row.owner_id,
  parentId: row.parent_id,
  title: row.title,
  icon: row.icon,
  ancestorIds: idsSchema.parse(JSON.parse(row.ancestor_ids)),
  folderPath: row.folder_path,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  updatedPosition: row.updated_pos,
  revision: row.revision,
});

const VISIBLE = `(p.owner_id IN (SELECT value FROM json_each(@owners))
  OR p.id IN (SELECT value FROM json_each(@pages))
  OR EXISTS (SELECT 1 FROM page_ancestors a WHERE a.page_id = p.id AND a.folder_id IN (SELECT value FROM json_each(@folders))))`;

/**
 * The newest visible pages, gathered from the three ways of seeing one (a workspace, a page grant, a folder
 * grant above it), each through its own index and cut to the limit: the work grows with what the caller can
 * see, never with the number of pages in the store.
 */
export const LIST_VISIBLE_PAGES = `
SELECT * FROM (
  SELECT * FROM (SELECT p.* FROM pages p
    WHERE p.owner_id IN (SELECT value FROM json_each(@owners)) AND p.deleted = 0 AND p.updated_pos < @before
    ORDER BY p.updated_pos DESC LIMIT @limit)
  UNION
  SELECT * FROM (SELECT p.* FROM pages p
    WHERE p.id IN (SELECT value FROM json_each(@pages)) AND p.deleted = 0 AND p.updated_pos < @before
    ORDER BY p.updated_pos DESC LIMIT @limit)
  UNION
  SELECT * FROM (SELECT DISTINCT p.* FROM page_ancestors a JOIN pages p ON p.id = a.page_id
    WHERE a.folder_id IN (SELECT value FROM json_each(@folders)) AND p.deleted = 0 AND p.updated_pos < @before
    ORDER BY p.updated_pos DESC LIMIT @limit)
) ORDER BY updated_pos DESC LIMIT @limit`;

type ListParams = { before: number; owners: string; pages: string; folders: string; limit: number; parent?: string };

export class SqlitePagesView implements PagesView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      insert: db.prepare(
        `INSERT OR REPLACE INTO pages (id, owner_id, parent_id, title, title_key, icon, ancestor_ids, folder_path, created_at, updated_at, updated_pos, revision)
         VALUES (@id, @ownerId, @parentId, @title, @titleKey, @icon, @ancestorIds, @folderPath, @createdAt, @updatedAt, @updatedPosition, @revision)`,
      ),
      ancestor: db.prepare("INSERT OR IGNORE INTO page_ancestors (page_id, folder_id) VALUES (?, ?)"),
      content: db.prepare("INSERT OR REPLACE INTO page_contents (page_id, markdown) VALUES (?, ?)"),
      change: db.prepare(
        `UPDATE pages SET title = coalesce(@title, title), title_key = coalesce(@titleKey, title_key),
           icon = CASE WHEN @iconChanged THEN @icon ELSE icon END,
           updated_at = @updatedAt, updated_pos = @updatedPosition, revision = @revision
         WHERE id = @id`,
      ),
      remove: db.prepare("UPDATE pages SET deleted = 1 WHERE id = ?"),
      removeContent: db.prepare("DELETE FROM page_contents WHERE page_id = ?"),
      get: db.prepare<[string], Row>("SELECT * FROM pages WHERE id = ? AND deleted = 0"),
      getContent: db.prepare<[string], { markdown: string }>("SELECT markdown FROM page_contents WHERE page_id = ?"),
      list: db.prepare<[ListParams], Row>(LIST_VISIBLE_PAGES),
      listInFolder: db.prepare<[ListParams], Row>(
        `SELECT p.* FROM pages p WHERE p.deleted = 0 AND p.parent_id = @parent AND p.updated_pos < @before AND ${VISIBLE}
         ORDER BY p.updated_pos DESC LIMIT @limit`,
      ),
      byTitle: db.prepare<[string, number], Row>(
        "SELECT * FROM pages WHERE title_key = ? AND deleted = 0 ORDER BY updated_pos DESC LIMIT ?",
      ),
    };
  }

  async create(page: PageRecord, markdown: string): Promise<void> {
    this.statements.insert.run({ ...page, titleKey: titleKey(page.title), ancestorIds: JSON.stringify(page.ancestorIds) });
    for (const folderId of page.ancestorIds) this.statements.ancestor.run(page.id, folderId);
    this.statements.content.run(page.id, markdown);
  }

  async change(id: string, change: PageChange): Promise<void> {
    this.statements.change.run({
      id,
      title: change.title ?? null,
      titleKey: change.title === undefined ? null : titleKey(change.title),
      iconChanged: change.icon === undefined ? 0 : 1,
      icon: change.icon ?? null,
      updatedAt: change.updatedAt,
      updatedPosition: change.updatedPosition,
      revision: change.revision,
    });
    if (change.markdown !== undefined) this.statements.content.run(id, change.markdown);
  }

  async remove(id: string): Promise<void> {
    this.statements.remove.run(id);
    this.statements.removeContent.run(id);
  }

  async get(id: string): Promise<PageRecord | null> {
    const row = this.statements.get.get(id);
    return row ? toRecord(row) : null;
  }

  async getContent(id: string): Promise<PageContent | null> {
    const row = this.statements.get.get(id);
    const content = row ? this.statements.getContent.get(id) : undefined;
    return row && content ? { page: toRecord(row), markdown: content.markdown } : null;
  }

  async list(query: ListQuery & { parentId: string | null }): Promise<PageRecord[]> {
    const params: ListParams = {
      before: query.before ?? Number.MAX_SAFE_INTEGER,
      owners: JSON.stringify(query.visibleTo.ownerIds),
      pages: JSON.stringify(query.visibleTo.pageIds),
      folders: JSON.stringify(query.visibleTo.folderIds),
      limit: query.limit + 1,
    };
    const rows =
      query.parentId === null
        ? this.statements.list.all(params)
        : this.statements.listInFolder.all({ ...params, parent: query.parentId });
    return rows.map(toRecord);
  }

  async findByTitleKey(key: string, limit: number): Promise<PageRecord[]> {
    return this.statements.byTitle.all(key, limit).map(toRecord);
  }
}
