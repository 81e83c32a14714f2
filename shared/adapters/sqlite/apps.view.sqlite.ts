import type Database from "better-sqlite3";
import { z } from "zod";
import type { AppRecord, AppsView, AppsWriter } from "../../apps/apps.view.ts";
import { scopeSchema } from "../../kernel/scopes.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS apps (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  client_id TEXT NOT NULL,
  name TEXT NOT NULL,
  client_uri TEXT,
  redirect_host TEXT NOT NULL,
  scopes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX IF NOT EXISTS apps_user ON apps (user_id, created_at);`;
export const appsModel: SqliteModel = { schema, tables: ["apps"], queryIndexes: [] };

type Row = {
  id: string;
  user_id: string;
  client_id: string;
  name: string;
  client_uri: string | null;
  redirect_host: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
};
const scopesSchema = z.array(scopeSchema);
const toRecord = (row: Row): AppRecord => ({
  id: row.id,
  userId: row.user_id,
  clientId: row.client_id,
  name: row.name,
  clientUri: row.client_uri,
  redirectHost: row.redirect_host,
  scopes: scopesSchema.parse(JSON.parse(row.scopes)),
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

export class SqliteAppsWriter implements AppsWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      put: db.prepare(
        `INSERT OR REPLACE INTO apps (id, user_id, client_id, name, client_uri, redirect_host, scopes, created_at, revoked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      revoked: db.prepare("UPDATE apps SET revoked_at = ? WHERE id = ?"),
      removeForUser: db.prepare<[string]>("DELETE FROM apps WHERE user_id = ?"),
    };
  }

  async put(_tx: SqliteBatch, app: AppRecord): Promise<void> {
    this.statements.put.run(
      app.id,
      app.userId,
      app.clientId,
      app.name,
      app.clientUri,
      app.redirectHost,
      JSON.stringify(app.scopes),
      app.createdAt,
      app.revokedAt,
    );
  }

  async markRevoked(_tx: SqliteBatch, id: string, revokedAt: string): Promise<void> {
    this.statements.revoked.run(revokedAt, id);
  }

  async removeForUser(_tx: SqliteBatch, userId: string): Promise<void> {
    this.statements.removeForUser.run(userId);
  }
}

export class SqliteAppsView implements AppsView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      get: db.prepare<[string], Row>("SELECT * FROM apps WHERE id = ?"),
      forUser: db.prepare<[string], Row>(
        "SELECT * FROM apps WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, id DESC",
      ),
    };
  }

  async get(id: string): Promise<AppRecord | null> {
    const row = this.statements.get.get(id);
    return row ? toRecord(row) : null;
  }

  async listForUser(userId: string): Promise<AppRecord[]> {
    return this.statements.forUser.all(userId).map(toRecord);
  }
}
