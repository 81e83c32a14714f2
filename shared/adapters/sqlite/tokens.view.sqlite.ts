import type Database from "better-sqlite3";
import { z } from "zod";
import { scopeSchema } from "../../kernel/scopes.ts";
import type { TokenRecord, TokensView, TokensWriter } from "../../tokens/tokens.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  name TEXT NOT NULL,
  scopes TEXT NOT NULL,
  expires_at TEXT,
  last_used_at TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  secret_hash TEXT NOT NULL UNIQUE
);
CREATE INDEX IF NOT EXISTS tokens_user ON tokens (user_id, created_at);`;
export const tokensModel: SqliteModel = { schema, tables: ["tokens"], queryIndexes: [] };

type Row = {
  id: string;
  user_id: string;
  name: string;
  scopes: string;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
  revoked_at: string | null;
  secret_hash: string;
};
const scopesSchema = z.array(scopeSchema);
const toRecord = (row: Row): TokenRecord => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  scopes: scopesSchema.parse(JSON.parse(row.scopes)),
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  secretHash: row.secret_hash,
});

export class SqliteTokensWriter implements TokensWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      put: db.prepare(
        `INSERT OR REPLACE INTO tokens (id, user_id, name, scopes, expires_at, last_used_at, created_at, revoked_at, secret_hash)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      used: db.prepare("UPDATE tokens SET last_used_at = ? WHERE id = ?"),
      revoked: db.prepare("UPDATE tokens SET revoked_at = ? WHERE id = ?"),
      removeForUser: db.prepare<[string]>("DELETE FROM tokens WHERE user_id = ?"),
    };
  }

  async put(_tx: SqliteBatch, t: TokenRecord): Promise<void> {
    this.statements.put.run(
      t.id,
      t.userId,
      t.name,
      JSON.stringify(t.scopes),
      t.expiresAt,
      t.lastUsedAt,
      t.createdAt,
      t.revokedAt,
      t.secretHash,
    );
  }

  async markUsed(_tx: SqliteBatch, id: string, usedAt: string): Promise<void> {
    this.statements.used.run(usedAt, id);
  }

  async markRevoked(_tx: SqliteBatch, id: string, revokedAt: string): Promise<void> {
    this.statements.revoked.run(revokedAt, id);
  }

  async removeForUser(_tx: SqliteBatch, userId: string): Promise<void> {
    this.statements.removeForUser.run(userId);
  }
}

export class SqliteTokensView implements TokensView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      get: db.prepare<[string], Row>("SELECT * FROM tokens WHERE id = ?"),
      byHash: db.prepare<[string], Row>("SELECT * FROM tokens WHERE secret_hash = ?"),
      forUser: db.prepare<[string], Row>(
        "SELECT * FROM tokens WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, id DESC",
      ),
    };
  }

  async get(id: string): Promise<TokenRecord | null> {
    const row = this.statements.get.get(id);
    return row ? toRecord(row) : null;
  }

  async findBySecretHash(secretHash: string): Promise<TokenRecord | null> {
    const row = this.statements.byHash.get(secretHash);
    return row ? toRecord(row) : null;
  }

  async listForUser(userId: string): Promise<TokenRecord[]> {
    return this.statements.forUser.all(userId).map(toRecord);
  }
}
