// The columns every file uploaded to a page has in SQLite (images and attachments alike), and their mapping
// to the record's fields; each table adds its own columns beside them.

/** An uploaded file's common columns, as better-sqlite3 returns them (all NOT NULL). */
export type UploadedFileRow = {
  id: string;
  page_id: string;
  uploader_id: string;
  filename: string;
  original_name: string;
  mime_type: string;
  size: number;
  sha256: string;
  created_at: string;
};

/** The record fields of those columns, but for the MIME type (each kind reads it with its own schema). */
export const uploadedFileOf = (row: UploadedFileRow) => ({
  id: row.id,
  pageId: row.page_id,
  uploaderId: row.uploader_id,
  filename: row.filename,
  originalName: row.original_name,
  size: row.size,
  sha256: row.sha256,
  createdAt: row.created_at,
});
