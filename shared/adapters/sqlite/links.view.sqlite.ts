// Page links in SQLite: one row per (source, target) with the source's owner, looked up by target for backlinks
// (through each source of the caller's visibility) and by source when a page's content changes or it is deleted.
import type Database from "better-sqlite3";
import type { LinksView, LinksWriter, PageLink } from "../../links/links.view.ts";
import type { VisibleTo } from "../../read-store/list-query.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS page_links (
  source_id TEXT NOT NULL,
  target_id TEXT NOT NULL,
  source_owner TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (source_id, target_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS page_links_target ON page_links (target_id, source_owner, position DESC);`;
export const linksModel: SqliteModel = { schema, tables: ["page_links"], queryIndexes: ["page_links_target"] };

type Row = { source_id: string; target_id: string; position: number };
const toLink = (row: Row): PageLink => ({ sourceId: row.source_id, targetId: row.target_id, position: row.position });

export class SqliteLinksWriter implements LinksWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      targets: db.prepare<[string], string>("SELECT target_id FROM page_links WHERE source_id = ?").pluck(),
      // The listing row stays (marked deleted) until a purge, and a page's later events all follow its creation.
      owner: db.prepare<[string], string>("SELECT owner_id FROM pages WHERE id = ?").pluck(),
      insert: db.prepare<[string, string, string, number]>(
        "INSERT OR IGNORE INTO page_links (source_id, target_id, source_owner, position) VALUES (?, ?, ?, ?)",
      ),
      delete: db.prepare<[string, string]>("DELETE FROM page_links WHERE source_id = ? AND target_id = ?"),
      deleteSource: db.prepare<[string]>("DELETE FROM page_links WHERE source_id = ?"),
      deleteTarget: db.prepare<[string]>("DELETE FROM page_links WHERE target_id = ?"),
    };
  }

  async setLinks(
    _tx: SqliteBatch,
    source: { id: string; ownerId: string | null },
    targetIds: readonly string[],
    position: number,
  ): Promise<void> {
    const wanted = new Set(targetIds);
    for (const held of this.statements.targets.all(source.id))
      if (!wanted.has(held)) this.statements.delete.run(source.id, held);
    if (wanted.size === 0) return;
    const owner = source.ownerId ?? this.statements.owner.get(source.id);
    if (owner === undefined) throw new Error(`links of page ${source.id}: the page has no record`);
    for (const targetId of wanted) this.statements.insert.run(source.id, targetId, owner, position);
  }

  async removeSource(_tx: SqliteBatch, sourceId: string): Promise<void> {
    this.statements.deleteSource.run(sourceId);
  }

  async removeTarget(_tx: SqliteBatch, targetId: string): Promise<void> {
    this.statements.deleteTarget.run(targetId);
  }
}

interface LinksParams {
  target: string;
  owners: string;
  folders: string;
  pages: string;
  before: number;
  limit: number;
}

/**
 * Each source of visibility through its own index: the links from a visible workspace's pages (target, owner),
 * from pages below a granted folder (the folder's pages, then each one's link to the target by primary key), and
 * from granted pages (by primary key). A link from a page the caller cannot see is never read.
 */
const VISIBLE_LINKS = `
SELECT source_id, target_id, position FROM page_links
  WHERE target_id = @target AND source_owner IN (SELECT value FROM json_each(@owners)) AND position < @before
UNION
SELECT l.source_id, l.target_id, l.position FROM page_ancestors a JOIN page_links l ON l.source_id = a.page_id AND l.target_id = @target
  WHERE a.folder_id IN (SELECT value FROM json_each(@folders)) AND l.position < @before
UNION
SELECT source_id, target_id, position FROM page_links
  WHERE source_id IN (SELECT value FROM json_each(@pages)) AND target_id = @target AND position < @before
ORDER BY position DESC LIMIT CAST(@limit AS INTEGER)`;

export class SqliteLinksView implements LinksView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = { visible: db.prepare<[LinksParams], Row>(VISIBLE_LINKS) };
  }

  async linksTo(targetId: string, visibleTo: VisibleTo, before: number | null, limit: number): Promise<PageLink[]> {
    const params: LinksParams = {
      target: targetId,
      owners: JSON.stringify(visibleTo.ownerIds),
      folders: JSON.stringify(visibleTo.folderIds),
      pages: JSON.stringify(visibleTo.pageIds),
      before: before ?? Number.MAX_SAFE_INTEGER,
      limit,
    };
    return this.statements.visible.all(params).map(toLink);
  }
}
