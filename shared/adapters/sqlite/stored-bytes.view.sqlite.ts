// The stored-bytes read model in SQLite: one row per workspace owner, the running total and the position of the
// last event that changed it.
import type Database from "better-sqlite3";
import type { StoredBytesView, StoredBytesWriter } from "../../quotas/stored-bytes.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS stored_bytes (
  owner_id TEXT PRIMARY KEY,
  bytes INTEGER NOT NULL,
  position INTEGER NOT NULL
);`;
export const storedBytesModel: SqliteModel = { schema, tables: ["stored_bytes"], queryIndexes: [] };

export class SqliteStoredBytesWriter implements StoredBytesWriter<SqliteBatch> {
  private readonly statement;

  constructor(db: Database.Database) {
    this.statement = db.prepare<{ ownerId: string; bytes: number; position: number }>(
      `INSERT INTO stored_bytes (owner_id, bytes, position) VALUES (:ownerId, :bytes, :position)
       ON CONFLICT (owner_id) DO UPDATE SET bytes = bytes + excluded.bytes, position = excluded.position WHERE position < excluded.position`,
    );
  }

  async add(_tx: SqliteBatch, ownerId: string, bytes: number, position: number): Promise<void> {
    this.statement.run({ ownerId, bytes, position });
  }
}

export class SqliteStoredBytesView implements StoredBytesView {
  private readonly statement;

  constructor(db: Database.Database) {
    this.statement = db.prepare<[string], number>("SELECT bytes FROM stored_bytes WHERE owner_id = ?").pluck();
  }

  async ofOwner(ownerId: string): Promise<number> {
    return this.statement.get(ownerId) ?? 0;
  }
}
