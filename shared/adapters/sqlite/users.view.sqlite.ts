import type Database from "better-sqlite3";
import type { UserRecord, UsersView, UsersWriter } from "../../users/users.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  image TEXT,
  created_at TEXT NOT NULL
);`;
export const usersModel: SqliteModel = { schema, tables: ["users"], queryIndexes: [] };

type Row = { id: string; email: string; name: string; image: string | null; created_at: string };
const toRecord = (row: Row): UserRecord => ({
  id: row.id,
  email: row.email,
  name: row.name,
  image: row.image,
  createdAt: row.created_at,
});

export class SqliteUsersWriter implements UsersWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      put: db.prepare("INSERT OR REPLACE INTO users (id, email, name, image, created_at) VALUES (?, ?, ?, ?, ?)"),
      profile: db.prepare("UPDATE users SET name = ?, image = ? WHERE id = ?"),
      erase: db.prepare<[string], { email: string }>("DELETE FROM users WHERE id = ? RETURNING email"),
    };
  }

  async put(_tx: SqliteBatch, user: UserRecord): Promise<void> {
    this.statements.put.run(user.id, user.email, user.name, user.image, user.createdAt);
  }

  async changeProfile(_tx: SqliteBatch, id: string, name: string, image: string | null): Promise<void> {
    this.statements.profile.run(name, image, id);
  }

  async erase(_tx: SqliteBatch, id: string): Promise<string | null> {
    return this.statements.erase.get(id)?.email ?? null;
  }
}

export class SqliteUsersView implements UsersView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      get: db.prepare<[string], Row>("SELECT * FROM users WHERE id = ?"),
      byEmail: db.prepare<[string], Row>("SELECT * FROM users WHERE email = ?"),
      many: db.prepare<[string], Row>("SELECT * FROM users WHERE id IN (SELECT value FROM json_each(?))"),
    };
  }

  async get(id: string): Promise<UserRecord | null> {
    const row = this.statements.get.get(id);
    return row ? toRecord(row) : null;
  }

  async getByEmail(email: string): Promise<UserRecord | null> {
    const row = this.statements.byEmail.get(email);
    return row ? toRecord(row) : null;
  }

  async getMany(ids: readonly string[]): Promise<Map<string, UserRecord>> {
    const rows = ids.length === 0 ? [] : this.statements.many.all(JSON.stringify([...new Set(ids)]));
    return new Map(rows.map((row) => [row.id, toRecord(row)]));
  }
}
