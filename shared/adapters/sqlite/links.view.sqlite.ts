// Page links in SQLite: one row per (source, target), looked up by target for backlinks and by source when a
// page's content changes or it is deleted.
import type Database from "better-sqlite3";
import type { LinksView, LinksWriter, PageLink } from "../../links/links.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS page_links (
  source_id TEXT NOT NULL,
  target_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (source_id, target_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS page_links_target ON page_links (target_id, position DESC);`;
export const linksModel: SqliteModel = { schema, tables: ["page_links"], queryIndexes: ["page_links_target"] };

type Row = { source_id: string; target_id: string; position: number };
const toLink = (row: Row): PageLink => ({ sourceId: row.source_id, targetId: row.target_id, position: row.position });

export class SqliteLinksWriter implements LinksWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      targets: db.prepare<[string], string>("SELECT target_id FROM page_links WHERE source_id = ?").pluck(),
      insert: db.prepare<[string, string, number]>("INSERT OR IGNORE INTO page_links (source_id, target_id, position) VALUES (?, ?, ?)"),
      delete: db.prepare<[string, string]>("DELETE FROM page_links WHERE source_id = ? AND target_id = ?"),
      deleteSource: db.prepare<[string]>("DELETE FROM page_links WHERE source_id = ?"),
      deleteTarget: db.prepare<[string]>("DELETE FROM page_links WHERE target_id = ?"),
    };
  }

  async setLinks(_tx: SqliteBatch, sourceId: string, targetIds: readonly string[], position: number): Promise<void> {
    const wanted = new Set(targetIds);
    for (const held of this.statements.targets.all(sourceId)) if (!wanted.has(held)) this.statements.delete.run(sourceId, held);
    for (const targetId of wanted) this.statements.insert.run(sourceId, targetId, position);
  }

  async removeSource(_tx: SqliteBatch, sourceId: string): Promise<void> {
    this.statements.deleteSource.run(sourceId);
  }

  async removeTarget(_tx: SqliteBatch, targetId: string): Promise<void> {
    this.statements.deleteTarget.run(targetId);
  }
}

export class SqliteLinksView implements LinksView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      first: db.prepare<[string, number], Row>("SELECT * FROM page_links WHERE target_id = ? ORDER BY position DESC LIMIT ?"),
      after: db.prepare<[string, number, number], Row>("SELECT * FROM page_links WHERE target_id = ? AND position < ? ORDER BY position DESC LIMIT ?"),
    };
  }

  async linksTo(targetId: string, before: number | null, limit: number): Promise<PageLink[]> {
    const rows = before === null ? this.statements.first.all(targetId, limit) : this.statements.after.all(targetId, before, limit);
    return rows.map(toLink);
  }
}
