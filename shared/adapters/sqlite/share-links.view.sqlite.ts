import type Database from "better-sqlite3";
import { shareLinkEntityTypeSchema } from "../../share-links/share-link.decider.ts";
import type {
  ShareLinkRecord,
  ShareLinkSettingsChange,
  ShareLinksView,
  ShareLinksWriter,
} from "../../share-links/share-links.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS share_links (
  id TEXT PRIMARY KEY,
  entity_type TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  position INTEGER NOT NULL,
  secret_hash TEXT NOT NULL UNIQUE,
  expires_at TEXT,
  password_hash TEXT,
  allow_indexing INTEGER NOT NULL,
  revoked_at TEXT,
  views INTEGER NOT NULL,
  last_viewed_at TEXT
);
CREATE INDEX IF NOT EXISTS share_links_creator ON share_links (created_by, position);
CREATE INDEX IF NOT EXISTS share_links_entity ON share_links (entity_type, entity_id, position);`;
export const shareLinksModel: SqliteModel = {
  schema,
  tables: ["share_links"],
  queryIndexes: ["share_links_creator", "share_links_entity"],
};

type Row = {
  id: string;
  entity_type: string;
  entity_id: string;
  created_by: string;
  created_at: string;
  position: number;
  secret_hash: string;
  expires_at: string | null;
  password_hash: string | null;
  allow_indexing: number;
  revoked_at: string | null;
  views: number;
  last_viewed_at: string | null;
};

const toRecord = (row: Row): ShareLinkRecord => ({
  id: row.id,
  entityType: shareLinkEntityTypeSchema.parse(row.entity_type),
  entityId: row.entity_id,
  createdBy: row.created_by,
  createdAt: row.created_at,
  position: row.position,
  secretHash: row.secret_hash,
  expiresAt: row.expires_at,
  passwordHash: row.password_hash,
  allowIndexing: row.allow_indexing === 1,
  revokedAt: row.revoked_at,
  views: row.views,
  lastViewedAt: row.last_viewed_at,
});

const BEFORE_ALL = Number.MAX_SAFE_INTEGER;

export class SqliteShareLinksWriter implements ShareLinksWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      put: db.prepare(
        `INSERT OR REPLACE INTO share_links (id, entity_type, entity_id, created_by, created_at, position, secret_hash, expires_at, password_hash, allow_indexing, revoked_at, views, last_viewed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      change: db.prepare("UPDATE share_links SET expires_at = ?, password_hash = ?, allow_indexing = ? WHERE id = ?"),
      revoke: db.prepare("UPDATE share_links SET revoked_at = ? WHERE id = ?"),
      views: db.prepare(
        "UPDATE share_links SET views = views + ?, last_viewed_at = CASE WHEN last_viewed_at IS NULL OR last_viewed_at < ? THEN ? ELSE last_viewed_at END WHERE id = ?",
      ),
    };
  }

  async put(_tx: SqliteBatch, l: ShareLinkRecord): Promise<void> {
    this.statements.put.run(
      l.id,
      l.entityType,
      l.entityId,
      l.createdBy,
      l.createdAt,
      l.position,
      l.secretHash,
      l.expiresAt,
      l.passwordHash,
      l.allowIndexing ? 1 : 0,
      l.revokedAt,
      l.views,
      l.lastViewedAt,
    );
  }

  async change(_tx: SqliteBatch, id: string, s: ShareLinkSettingsChange): Promise<void> {
    this.statements.change.run(s.expiresAt, s.passwordHash, s.allowIndexing ? 1 : 0, id);
  }

  async revoke(_tx: SqliteBatch, id: string, revokedAt: string): Promise<void> {
    this.statements.revoke.run(revokedAt, id);
  }

  async addViews(_tx: SqliteBatch, id: string, views: number, lastViewedAt: string): Promise<void> {
    this.statements.views.run(views, lastViewedAt, lastViewedAt, id);
  }
}

export class SqliteShareLinksView implements ShareLinksView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      get: db.prepare<[string], Row>("SELECT * FROM share_links WHERE id = ?"),
      byHash: db.prepare<[string], Row>("SELECT * FROM share_links WHERE secret_hash = ?"),
      forCreator: db.prepare<[string, number, number], Row>(
        "SELECT * FROM share_links WHERE created_by = ? AND position < ? ORDER BY position DESC LIMIT ?",
      ),
      forEntity: db.prepare<[string, string, number, number], Row>(
        "SELECT * FROM share_links WHERE entity_type = ? AND entity_id = ? AND position < ? ORDER BY position DESC LIMIT ?",
      ),
    };
  }

  async get(id: string): Promise<ShareLinkRecord | null> {
    const row = this.statements.get.get(id);
    return row ? toRecord(row) : null;
  }

  async findBySecretHash(secretHash: string): Promise<ShareLinkRecord | null> {
    const row = this.statements.byHash.get(secretHash);
    return row ? toRecord(row) : null;
  }

  async listForCreator(userId: string, beforePosition: number | null, limit: number): Promise<ShareLinkRecord[]> {
    return this.statements.forCreator.all(userId, beforePosition ?? BEFORE_ALL, limit).map(toRecord);
  }

  async listForEntity(
    entityType: string,
    entityId: string,
    beforePosition: number | null,
    limit: number,
  ): Promise<ShareLinkRecord[]> {
    return this.statements.forEntity.all(entityType, entityId, beforePosition ?? BEFORE_ALL, limit).map(toRecord);
  }
}
