// The authorization server's store in its own SQLite file (DATA_DIR/oauth.sqlite): not a read model, since it
// is not rebuilt from the log; entries are keyed by the hash of their id and expire.
import type Database from "better-sqlite3";
import { z } from "zod";
import type { OAuthEntry, OAuthStore } from "../../oauth/oauth-store.port.ts";
import { openDatabase } from "./open-database.ts";

const schema = `
CREATE TABLE IF NOT EXISTS oauth_entries (
  model TEXT NOT NULL,
  id_hash TEXT NOT NULL,
  payload TEXT NOT NULL,
  grant_id TEXT,
  uid_hash TEXT,
  expires_at INTEGER,
  PRIMARY KEY (model, id_hash)
);
CREATE INDEX IF NOT EXISTS oauth_entries_grant ON oauth_entries (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS oauth_entries_uid ON oauth_entries (uid_hash) WHERE uid_hash IS NOT NULL;
CREATE INDEX IF NOT EXISTS oauth_entries_expiry ON oauth_entries (expires_at) WHERE expires_at IS NOT NULL;`;

type Row = {
  model: string;
  id_hash: string;
  payload: string;
  grant_id: string | null;
  uid_hash: string | null;
  expires_at: number | null;
};
const payloadSchema = z.record(z.string(), z.unknown());
const toEntry = (row: Row): OAuthEntry => ({
  payload: payloadSchema.parse(JSON.parse(row.payload)),
  grantId: row.grant_id,
  uidHash: row.uid_hash,
  expiresAt: row.expires_at,
});

export class SqliteOAuthStore implements OAuthStore {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(filename: string) {
    this.db = openDatabase(filename);
    this.db.exec(schema);
    this.statements = {
      put: this.db.prepare(
        `INSERT OR REPLACE INTO oauth_entries (model, id_hash, payload, grant_id, uid_hash, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      get: this.db.prepare<[string, string, number], Row>(
        "SELECT * FROM oauth_entries WHERE model = ? AND id_hash = ? AND (expires_at IS NULL OR expires_at > ?)",
      ),
      byUid: this.db.prepare<[string, number], Row>(
        "SELECT * FROM oauth_entries WHERE uid_hash = ? AND (expires_at IS NULL OR expires_at > ?) LIMIT 1",
      ),
      consume: this.db.prepare<[number, string, string]>(
        "UPDATE oauth_entries SET payload = json_set(payload, '$.consumed', ?) WHERE model = ? AND id_hash = ?",
      ),
      remove: this.db.prepare<[string, string]>("DELETE FROM oauth_entries WHERE model = ? AND id_hash = ?"),
      removeGrant: this.db.prepare<[string]>("DELETE FROM oauth_entries WHERE grant_id = ?"),
      sweep: this.db.prepare<[number, number]>(
        "DELETE FROM oauth_entries WHERE rowid IN (SELECT rowid FROM oauth_entries WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT ?)",
      ),
    };
  }

  async put(model: string, idHash: string, entry: OAuthEntry): Promise<void> {
    this.statements.put.run(
      model,
      idHash,
      JSON.stringify(entry.payload),
      entry.grantId,
      entry.uidHash,
      entry.expiresAt,
    );
  }

  async get(model: string, idHash: string, now: number): Promise<OAuthEntry | null> {
    const row = this.statements.get.get(model, idHash, now);
    return row ? toEntry(row) : null;
  }

  async findByUid(uidHash: string, now: number): Promise<{ idHash: string; entry: OAuthEntry } | null> {
    const row = this.statements.byUid.get(uidHash, now);
    return row ? { idHash: row.id_hash, entry: toEntry(row) } : null;
  }

  async consume(model: string, idHash: string, consumedAt: number): Promise<void> {
    this.statements.consume.run(consumedAt, model, idHash);
  }

  async remove(model: string, idHash: string): Promise<void> {
    this.statements.remove.run(model, idHash);
  }

  async removeGrant(grantId: string): Promise<void> {
    this.statements.removeGrant.run(grantId);
  }

  async sweep(now: number, limit: number): Promise<number> {
    return this.statements.sweep.run(now, limit).changes;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
