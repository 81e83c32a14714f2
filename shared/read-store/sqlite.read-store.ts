// ReadStore on one SQLite file. Open one instance for the projector (the only writer) and one per reader:
// in WAL mode readers see the last committed batch, never half of one.
import Database from "better-sqlite3";
import { accessSchema } from "../access/access.view.sqlite.ts";
import { SqliteAccessView } from "../access/access.view.sqlite.ts";
import { foldersSchema, SqliteFoldersView } from "../folders/folders.view.sqlite.ts";
import { pagesSchema, SqlitePagesView } from "../pages/pages.view.sqlite.ts";
import { invitationsSchema, SqliteInvitationsView } from "../sharing/invitations.view.sqlite.ts";
import { SqliteTokensView, tokensSchema } from "../tokens/tokens.view.sqlite.ts";
import { SqliteUsersView, usersSchema } from "../users/users.view.sqlite.ts";
import type { ReadStore } from "./read-store.port.ts";

const checkpointSchema = `
CREATE TABLE IF NOT EXISTS checkpoint (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  position INTEGER NOT NULL
);
INSERT OR IGNORE INTO checkpoint (id, position) VALUES (1, 0);`;

const schemas = [checkpointSchema, usersSchema, tokensSchema, foldersSchema, pagesSchema, accessSchema, invitationsSchema];
const tables = ["users", "tokens", "folders", "folder_ancestors", "pages", "page_ancestors", "page_contents", "grants", "workspace_members", "invitations"];

export class SqliteReadStore implements ReadStore {
  readonly users;
  readonly tokens;
  readonly folders;
  readonly pages;
  readonly access;
  readonly invitations;
  private readonly db: Database.Database;
  private readonly statements;

  constructor(filename: string) {
    this.db = new Database(filename);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(schemas.join("\n"));
    this.users = new SqliteUsersView(this.db);
    this.tokens = new SqliteTokensView(this.db);
    this.folders = new SqliteFoldersView(this.db);
    this.pages = new SqlitePagesView(this.db);
    this.access = new SqliteAccessView(this.db);
    this.invitations = new SqliteInvitationsView(this.db);
    this.statements = {
      checkpoint: this.db.prepare<[], { position: number }>("SELECT position FROM checkpoint WHERE id = 1"),
      setCheckpoint: this.db.prepare("UPDATE checkpoint SET position = ? WHERE id = 1"),
    };
  }

  async checkpoint(): Promise<number> {
    return this.statements.checkpoint.get()?.position ?? 0;
  }

  async applyBatch(position: number, work: () => Promise<void>): Promise<void> {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      await work();
      this.statements.setCheckpoint.run(position);
      this.db.exec("COMMIT");
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    }
  }

  async reset(): Promise<void> {
    this.db.transaction(() => {
      for (const table of tables) this.db.exec(`DELETE FROM ${table}`);
      this.statements.setCheckpoint.run(0);
    })();
  }

  async ping(): Promise<boolean> {
    return this.db.prepare("SELECT 1 AS ok").get() !== undefined;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
