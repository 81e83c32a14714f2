// ReadStore on one SQLite file. Open one instance for the projector (the only writer) and one per reader:
// in WAL mode readers see the last committed batch, never half of one.
import type Database from "better-sqlite3";
import { openDatabase } from "./open-database.ts";
import { accessSchema } from "./access.view.sqlite.ts";
import { SqliteAccessView } from "./access.view.sqlite.ts";
import { SqliteThreadsView, threadsSchema } from "./threads.view.sqlite.ts";
import { foldersSchema, SqliteFoldersView } from "./folders.view.sqlite.ts";
import { pagesSchema, SqlitePagesView } from "./pages.view.sqlite.ts";
import { invitationsSchema, SqliteInvitationsView } from "./invitations.view.sqlite.ts";
import { SqliteTokensView, tokensSchema } from "./tokens.view.sqlite.ts";
import { SqliteUsersView, usersSchema } from "./users.view.sqlite.ts";
import type { ReadStore } from "../../read-store/read-store.port.ts";

/** Bump whenever a read-model table changes shape. */
const READ_MODEL_VERSION = 8;

const checkpointSchema = `
CREATE TABLE IF NOT EXISTS checkpoint (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  position INTEGER NOT NULL
);
INSERT OR IGNORE INTO checkpoint (id, position) VALUES (1, 0);`;

/** Indexes that serve queries only (no projection looks rows up through them): dropped during a rebuild. */
const queryOnlyIndexes = ["pages_parent", "pages_title", "pages_owner", "page_ancestors_folder", "folders_updated", "comment_threads_page", "comment_threads_page_status"];
const schemas = [checkpointSchema, usersSchema, tokensSchema, foldersSchema, pagesSchema, accessSchema, threadsSchema, invitationsSchema];
const tables = [
  "users", "tokens", "folders", "folder_ancestors", "pages", "page_ancestors", "page_contents", "grants", "workspace_members",
  "comment_threads", "thread_comments", "invitations",
];

export class SqliteReadStore implements ReadStore {
  readonly users;
  readonly tokens;
  readonly folders;
  readonly pages;
  readonly access;
  readonly threads;
  readonly invitations;
  private readonly db: Database.Database;
  private readonly statements;

  constructor(filename: string) {
    this.db = openDatabase(filename);
    this.migrate();
    this.users = new SqliteUsersView(this.db);
    this.tokens = new SqliteTokensView(this.db);
    this.folders = new SqliteFoldersView(this.db);
    this.pages = new SqlitePagesView(this.db);
    this.access = new SqliteAccessView(this.db);
    this.threads = new SqliteThreadsView(this.db);
    this.invitations = new SqliteInvitationsView(this.db);
    this.statements = {
      checkpoint: this.db.prepare<[], { position: number }>("SELECT position FROM checkpoint WHERE id = 1"),
      setCheckpoint: this.db.prepare("UPDATE checkpoint SET position = ? WHERE id = 1"),
    };
  }

  /**
   * Read models are disposable: when their layout changes (READ_MODEL_VERSION), the old tables are dropped and
   * the checkpoint starts at zero, so the projector rebuilds them from the event history.
   */
  private migrate(): void {
    const version = this.db.pragma("user_version", { simple: true });
    if (version !== READ_MODEL_VERSION) {
      const old = this.db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all();
      this.db.transaction(() => {
        for (const { name } of old) this.db.exec(`DROP TABLE IF EXISTS "${name}"`);
        this.db.exec("DROP TABLE IF EXISTS sqlite_stat1; DROP TABLE IF EXISTS sqlite_stat4;");
        this.db.exec(schemas.join("\n"));
        this.db.pragma(`user_version = ${READ_MODEL_VERSION}`);
      })();
    }
    this.db.exec(schemas.join("\n"));
  }

  async checkpoint(): Promise<number> {
    return this.statements.checkpoint.get()?.position ?? 0;
  }

  async applyBatch(position: number, work: () => Promise<void>): Promise<void> {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      await work();
      this.pages.flush();
      this.statements.setCheckpoint.run(position);
      this.db.exec("COMMIT");
    } catch (error) {
      this.pages.discard();
      this.db.exec("ROLLBACK");
      throw error;
    }
  }

  async beginRebuild(): Promise<void> {
    this.db.transaction(() => {
      for (const table of tables) this.db.exec(`DELETE FROM ${table}`);
      for (const index of queryOnlyIndexes) this.db.exec(`DROP INDEX IF EXISTS ${index}`);
      this.db.exec("UPDATE access_version SET version = version + 1");
      this.statements.setCheckpoint.run(0);
    })();
  }

  async endRebuild(): Promise<void> {
    // No ANALYZE: with its sqlite_stat4 tables SQLite re-plans a statement for every new bound value,
    // which doubles the cost of the small indexed reads the lists are made of.
    this.db.exec(schemas.join("\n"));
  }

  async ping(): Promise<boolean> {
    return this.db.prepare("SELECT 1 AS ok").get() !== undefined;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
