// The watches read model in SQLite: one row per (entity, user). The fan-out reads one entity's watchers in
// user-id order from the primary key's prefix (kind, entity, ...) through a partial index of watching rows.
import type Database from "better-sqlite3";
import type { WatchedKind, WatchRecord, WatchState, WatchesView, WatchesWriter } from "../../watching/watches.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS watches (
  kind TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  state TEXT NOT NULL,
  auto INTEGER NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (kind, entity_id, user_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS watches_watching ON watches (kind, entity_id, user_id) WHERE state = 'watching';
CREATE INDEX IF NOT EXISTS watches_of_user ON watches (user_id, kind, entity_id) WHERE state = 'watching';`;
export const watchesModel: SqliteModel = {
  schema,
  tables: ["watches"],
  queryIndexes: ["watches_watching", "watches_of_user"],
};

type Params = { kind: WatchedKind; entityId: string; userId: string; state: WatchState; auto: 0 | 1; position: number };

const keyOf = (kind: WatchedKind, entityId: string, userId: string): string => `${kind} ${entityId} ${userId}`;

/**
 * An automatic watch is asked for at every page event of an author: each batch remembers the rows it wrote, so
 * a replay of a page's many edits inserts its author's row once per batch (a later automatic watch of a row
 * that exists changes nothing). A purge of the entity forgets them. They belong to the batch handle: a
 * rolled-back batch takes them with it.
 */
export class SqliteWatchesWriter implements WatchesWriter<SqliteBatch> {
  private readonly statements;
  /** Per batch: the rows (keyOf) it wrote, which an automatic watch leaves as they are. */
  private readonly writtenByBatch = new WeakMap<SqliteBatch, Set<string>>();

  constructor(db: Database.Database) {
    this.statements = {
      set: db.prepare<[Params]>(
        "INSERT OR REPLACE INTO watches (kind, entity_id, user_id, state, auto, position) VALUES (@kind, @entityId, @userId, @state, @auto, @position)",
      ),
      auto: db.prepare<[Params]>(
        "INSERT OR IGNORE INTO watches (kind, entity_id, user_id, state, auto, position) VALUES (@kind, @entityId, @userId, @state, @auto, @position)",
      ),
      removeEntity: db.prepare<[string, string]>("DELETE FROM watches WHERE kind = ? AND entity_id = ?"),
    };
    this.reader = new SqliteWatchesView(db);
  }

  private readonly reader: SqliteWatchesView;

  async stateOf(_tx: SqliteBatch, kind: WatchedKind, entityId: string, userId: string): Promise<WatchState | null> {
    return this.reader.stateOf(kind, entityId, userId);
  }

  async watchersOf(
    _tx: SqliteBatch,
    kind: WatchedKind,
    entityId: string,
    afterUserId: string | null,
    limit: number,
  ): Promise<string[]> {
    return this.reader.watchersOf(kind, entityId, afterUserId, limit);
  }

  async set(tx: SqliteBatch, record: WatchRecord): Promise<void> {
    this.statements.set.run({ ...record, auto: record.auto ? 1 : 0 });
    this.writtenOf(tx).add(keyOf(record.kind, record.entityId, record.userId));
  }

  async watchAutomatically(tx: SqliteBatch, record: Omit<WatchRecord, "state" | "auto">): Promise<void> {
    const written = this.writtenOf(tx);
    const key = keyOf(record.kind, record.entityId, record.userId);
    if (written.has(key)) return;
    this.statements.auto.run({ ...record, state: "watching", auto: 1 });
    written.add(key);
  }

  async removeEntity(tx: SqliteBatch, kind: WatchedKind, entityId: string): Promise<void> {
    this.statements.removeEntity.run(kind, entityId);
    this.writtenByBatch.delete(tx);
  }

  private writtenOf(tx: SqliteBatch): Set<string> {
    let written = this.writtenByBatch.get(tx);
    if (!written) {
      written = new Set();
      this.writtenByBatch.set(tx, written);
    }
    return written;
  }
}

export class SqliteWatchesView implements WatchesView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      stateOf: db
        .prepare<[string, string, string], WatchState>(
          "SELECT state FROM watches WHERE kind = ? AND entity_id = ? AND user_id = ?",
        )
        .pluck(),
      folders: db
        .prepare<[string, string], string>(
          "SELECT entity_id FROM watches WHERE user_id = ? AND kind = 'folder' AND state = 'watching' AND entity_id IN (SELECT value FROM json_each(?))",
        )
        .pluck(),
      watchers: db
        .prepare<[string, string, string, number], string>(
          `SELECT user_id FROM watches WHERE kind = ? AND entity_id = ? AND state = 'watching' AND user_id > ?
         ORDER BY user_id LIMIT CAST(? AS INTEGER)`,
        )
        .pluck(),
    };
  }

  async stateOf(kind: WatchedKind, entityId: string, userId: string): Promise<WatchState | null> {
    return this.statements.stateOf.get(kind, entityId, userId) ?? null;
  }

  async watchedFolders(userId: string, folderIds: readonly string[]): Promise<string[]> {
    if (folderIds.length === 0) return [];
    return this.statements.folders.all(userId, JSON.stringify(folderIds));
  }

  async watchersOf(kind: WatchedKind, entityId: string, afterUserId: string | null, limit: number): Promise<string[]> {
    return this.statements.watchers.all(kind, entityId, afterUserId ?? "", limit);
  }
}
