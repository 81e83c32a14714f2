// The templates read model in SQLite: one row per template, read newest marked first and filtered by the
// page's visibility in the same query (the page's listing row and its ancestors), so a template of another
// workspace is never counted or returned.
import type Database from "better-sqlite3";
import { LIST_START, type ListQuery } from "../../read-store/list-query.ts";
import type { TemplateRow, TemplatesView, TemplatesWriter } from "../../templates/templates.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS templates (
  page_id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  position INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS templates_newest ON templates (position, page_id);`;
export const templatesModel: SqliteModel = { schema, tables: ["templates"], queryIndexes: ["templates_newest"] };

type Row = { page_id: string; owner_id: string; position: number };
const toRow = (row: Row): TemplateRow => ({ pageId: row.page_id, ownerId: row.owner_id, position: row.position });

export class SqliteTemplatesWriter implements TemplatesWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      put: db.prepare<[TemplateRow]>(
        "INSERT OR REPLACE INTO templates (page_id, owner_id, position) VALUES (@pageId, @ownerId, @position)",
      ),
      remove: db.prepare<[string]>("DELETE FROM templates WHERE page_id = ?"),
    };
  }

  async put(_tx: SqliteBatch, row: TemplateRow): Promise<void> {
    this.statements.put.run(row);
  }

  async remove(_tx: SqliteBatch, pageId: string): Promise<void> {
    this.statements.remove.run(pageId);
  }
}

export class SqliteTemplatesView implements TemplatesView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      list: db.prepare<
        [{ before: number; beforeId: string; owners: string; pages: string; folders: string; limit: number }],
        Row
      >(
        `SELECT t.* FROM templates t JOIN pages p ON p.id = t.page_id AND p.deleted = 0
         WHERE (t.position, t.page_id) < (@before, @beforeId)
           AND (t.owner_id IN (SELECT value FROM json_each(@owners))
             OR t.page_id IN (SELECT value FROM json_each(@pages))
             OR EXISTS (SELECT 1 FROM page_ancestors a WHERE a.page_id = t.page_id AND a.folder_id IN (SELECT value FROM json_each(@folders))))
         ORDER BY t.position DESC, t.page_id DESC LIMIT CAST(@limit AS INTEGER)`,
      ),
      isTemplate: db.prepare<[string], number>("SELECT 1 FROM templates WHERE page_id = ?").pluck(),
    };
  }

  async list(query: ListQuery): Promise<TemplateRow[]> {
    const before = query.before ?? LIST_START;
    const { ownerIds, pageIds, folderIds } = query.visibleTo;
    return this.statements.list
      .all({
        before: before.position,
        beforeId: before.id,
        owners: JSON.stringify(ownerIds),
        pages: JSON.stringify(pageIds),
        folders: JSON.stringify(folderIds),
        limit: query.limit + 1,
      })
      .map(toRow);
  }

  async isTemplate(pageId: string): Promise<boolean> {
    return this.statements.isTemplate.get(pageId) !== undefined;
  }
}
