import type Database from "better-sqlite3";
import { imageMimeTypeSchema } from "../../images/image.decider.ts";
import type { ImageRecord, ImagesView, ImagesWriter } from "../../images/images.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";
import { uploadedFileOf, type UploadedFileRow } from "./uploaded-file-row.ts";

const schema = `
CREATE TABLE IF NOT EXISTS images (
  id TEXT PRIMARY KEY,
  page_id TEXT NOT NULL,
  uploader_id TEXT NOT NULL,
  filename TEXT NOT NULL,
  original_name TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  alt TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS images_page ON images (page_id);`;
export const imagesModel: SqliteModel = { schema, tables: ["images"], queryIndexes: [] };

type Row = UploadedFileRow & { width: number; height: number; alt: string };

const toRecord = (row: Row): ImageRecord => ({
  ...uploadedFileOf(row),
  mimeType: imageMimeTypeSchema.parse(row.mime_type),
  width: row.width,
  height: row.height,
  alt: row.alt,
});

export class SqliteImagesWriter implements ImagesWriter<SqliteBatch> {
  private readonly statement;
  private readonly removeStatement;
  private readonly bytesStatement;

  constructor(db: Database.Database) {
    this.statement = db.prepare(
      `INSERT OR REPLACE INTO images (id, page_id, uploader_id, filename, original_name, mime_type, size, width, height, alt, sha256, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.removeStatement = db.prepare<[string]>("DELETE FROM images WHERE page_id = ?");
    this.bytesStatement = db
      .prepare<[string], number>("SELECT coalesce(sum(size), 0) FROM images WHERE page_id = ?")
      .pluck();
  }

  async bytesOfPage(_tx: SqliteBatch, pageId: string): Promise<number> {
    return this.bytesStatement.get(pageId) ?? 0;
  }

  async put(_tx: SqliteBatch, i: ImageRecord): Promise<void> {
    this.statement.run(
      i.id,
      i.pageId,
      i.uploaderId,
      i.filename,
      i.originalName,
      i.mimeType,
      i.size,
      i.width,
      i.height,
      i.alt,
      i.sha256,
      i.createdAt,
    );
  }

  async removePage(_tx: SqliteBatch, pageId: string): Promise<void> {
    this.removeStatement.run(pageId);
  }
}

export class SqliteImagesView implements ImagesView {
  private readonly statement;
  private readonly allOfPageStatement;

  constructor(db: Database.Database) {
    this.statement = db.prepare<[string], Row>("SELECT * FROM images WHERE id = ?");
    this.allOfPageStatement = db.prepare<[string, string, number], Row>(
      "SELECT * FROM images WHERE page_id = ? AND id > ? ORDER BY id LIMIT ?",
    );
  }

  async allOfPage(pageId: string, afterId: string | null, limit: number): Promise<ImageRecord[]> {
    return this.allOfPageStatement.all(pageId, afterId ?? "", limit).map(toRecord);
  }

  async get(id: string): Promise<ImageRecord | null> {
    const row = this.statement.get(id);
    return row ? toRecord(row) : null;
  }
}
