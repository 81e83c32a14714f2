// The attachments read model in SQLite: one row per upload, a deleted one marked until its page is purged.
import type Database from "better-sqlite3";
import type { AttachmentRecord, AttachmentsView, AttachmentsWriter } from "../../attachments/attachments.view.ts";
import { LIST_START, type ListKey } from "../../read-store/list-query.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";
import { uploadedFileOf, type UploadedFileRow } from "./uploaded-file-row.ts";

const schema = `
CREATE TABLE IF NOT EXISTS attachments (
  id TEXT PRIMARY KEY,
  page_id TEXT NOT NULL,
  uploader_id TEXT NOT NULL,
  filename TEXT NOT NULL,
  original_name TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL,
  position INTEGER NOT NULL,
  deleted_at TEXT
);
CREATE INDEX IF NOT EXISTS attachments_page ON attachments (page_id, position DESC, id DESC);`;
export const attachmentsModel: SqliteModel = { schema, tables: ["attachments"], queryIndexes: [] };

type Row = UploadedFileRow & { position: number; deleted_at: string | null };

const toRecord = (row: Row): AttachmentRecord => ({
  ...uploadedFileOf(row),
  mimeType: row.mime_type,
  position: row.position,
  deletedAt: row.deleted_at,
});

export class SqliteAttachmentsWriter implements AttachmentsWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      put: db.prepare(
        `INSERT OR REPLACE INTO attachments (id, page_id, uploader_id, filename, original_name, mime_type, size, sha256, created_at, position, deleted_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      markDeleted: db.prepare<[string, string]>("UPDATE attachments SET deleted_at = ? WHERE id = ?"),
      removePage: db.prepare<[string]>("DELETE FROM attachments WHERE page_id = ?"),
      bytesOfPage: db
        .prepare<[string], number>("SELECT coalesce(sum(size), 0) FROM attachments WHERE page_id = ?")
        .pluck(),
      bytesOf: db.prepare<[string], number>("SELECT coalesce(sum(size), 0) FROM attachments WHERE id = ?").pluck(),
    };
  }

  async put(_tx: SqliteBatch, a: AttachmentRecord): Promise<void> {
    this.statements.put.run(
      a.id,
      a.pageId,
      a.uploaderId,
      a.filename,
      a.originalName,
      a.mimeType,
      a.size,
      a.sha256,
      a.createdAt,
      a.position,
      a.deletedAt,
    );
  }

  async markDeleted(_tx: SqliteBatch, id: string, deletedAt: string): Promise<void> {
    this.statements.markDeleted.run(deletedAt, id);
  }

  async bytesOfPage(_tx: SqliteBatch, pageId: string): Promise<number> {
    return this.statements.bytesOfPage.get(pageId) ?? 0;
  }

  async bytesOf(_tx: SqliteBatch, id: string): Promise<number> {
    return this.statements.bytesOf.get(id) ?? 0;
  }

  async removePage(_tx: SqliteBatch, pageId: string): Promise<void> {
    this.statements.removePage.run(pageId);
  }
}

export class SqliteAttachmentsView implements AttachmentsView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      get: db.prepare<[string], Row>("SELECT * FROM attachments WHERE id = ?"),
      list: db.prepare<{ pageId: string; position: number; id: string; limit: number }, Row>(
        `SELECT * FROM attachments WHERE page_id = :pageId AND deleted_at IS NULL
           AND (position < :position OR (position = :position AND id < :id))
         ORDER BY position DESC, id DESC LIMIT :limit`,
      ),
      all: db.prepare<[string, string, number], Row>(
        "SELECT * FROM attachments WHERE page_id = ? AND id > ? ORDER BY id LIMIT ?",
      ),
    };
  }

  async get(id: string): Promise<AttachmentRecord | null> {
    const row = this.statements.get.get(id);
    return row ? toRecord(row) : null;
  }

  async list(query: { pageId: string; before: ListKey | null; limit: number }): Promise<AttachmentRecord[]> {
    const { position, id } = query.before ?? LIST_START;
    return this.statements.list.all({ pageId: query.pageId, position, id, limit: query.limit + 1 }).map(toRecord);
  }

  async allOfPage(pageId: string, afterId: string | null, limit: number): Promise<AttachmentRecord[]> {
    return this.statements.all.all(pageId, afterId ?? "", limit).map(toRecord);
  }
}
