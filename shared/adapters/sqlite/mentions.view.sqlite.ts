// The mentions read model in SQLite: one row per (source, mentioned user), keeping the position where the
// mention first appeared.
import type Database from "better-sqlite3";
import type { MentionRecord, MentionSource, MentionsView, MentionsWriter } from "../../mentions/mentions.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS mentions (
  source_kind TEXT NOT NULL,
  source_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  page_id TEXT NOT NULL,
  since INTEGER NOT NULL,
  PRIMARY KEY (source_kind, source_id, user_id)
) WITHOUT ROWID;`;
export const mentionsModel: SqliteModel = { schema, tables: ["mentions"], queryIndexes: [] };

type Row = { source_kind: "page" | "comment"; source_id: string; user_id: string; page_id: string; since: number };

export class SqliteMentionsWriter implements MentionsWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      keepOnly: db.prepare<[string, string, string]>(
        "DELETE FROM mentions WHERE source_kind = ? AND source_id = ? AND user_id NOT IN (SELECT value FROM json_each(?))",
      ),
      add: db.prepare<[string, string, string, string, number]>(
        "INSERT OR IGNORE INTO mentions (source_kind, source_id, user_id, page_id, since) VALUES (?, ?, ?, ?, ?)",
      ),
      remove: db.prepare<[string, string]>("DELETE FROM mentions WHERE source_kind = ? AND source_id = ?"),
      mentioned: db
        .prepare<[string, string], string>("SELECT user_id FROM mentions WHERE source_kind = ? AND source_id = ?")
        .pluck(),
    };
  }

  async setMentions(
    _tx: SqliteBatch,
    source: MentionSource,
    pageId: string,
    userIds: readonly string[],
    position: number,
  ): Promise<void> {
    this.statements.keepOnly.run(source.kind, source.id, JSON.stringify(userIds));
    for (const userId of userIds) this.statements.add.run(source.kind, source.id, userId, pageId, position);
  }

  async removeSource(_tx: SqliteBatch, source: MentionSource): Promise<void> {
    this.statements.remove.run(source.kind, source.id);
  }

  async mentionedIn(_tx: SqliteBatch, source: MentionSource): Promise<string[]> {
    return this.statements.mentioned.all(source.kind, source.id);
  }
}

export class SqliteMentionsView implements MentionsView {
  private readonly statement;

  constructor(db: Database.Database) {
    this.statement = db.prepare<[string, string], Row>(
      "SELECT * FROM mentions WHERE source_kind = ? AND source_id = ? ORDER BY user_id",
    );
  }

  async mentionsIn(source: MentionSource): Promise<MentionRecord[]> {
    return this.statement.all(source.kind, source.id).map((row) => ({
      source: { kind: row.source_kind, id: row.source_id },
      pageId: row.page_id,
      userId: row.user_id,
      since: row.since,
    }));
  }
}
