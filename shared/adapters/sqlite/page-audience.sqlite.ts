// The page listing keyed by audience (docs/contributing/page-listing.md): one row per (user, live page) the user
// sees through a grant, their own or a group's, on the page or on a folder above it, kept in the order lists are
// read (updated_pos, page_id). Pages seen through ownership or a workspace role are not copied here: their
// audience is the workspace, whose listing is the pages table's owner index. A list of 50 is then one range
// scan of this table merged with one per workspace the caller has a role in.
//
// The projector keeps it in the batch's transaction: writers mark the users and pages whose audience may have
// changed, and settle() recomputes exactly those from the grants, memberships and ancestors as the batch leaves
// them, so the listing is a function of those tables (a rebuild from the log gives the same rows).
//
// A batch writes at most about ROWS_PER_SLICE (250) listing rows for its pages and new grants: a folder of many pages
// moved under a folder many people read, or a folder of many pages given to a large group, would otherwise write
// pages × readers rows in one transaction and hold the event loop for seconds. The pages past that budget are
// marked pending (page_audience_pending) and left out of every grant-based list until they are filled, in
// slices of about ROWS_PER_SLICE rows, each its own short transaction, with the event loop free between them.
// A pending page is thus never listed to someone who lost it; it reappears in the lists of its readers a moment
// after the write (the owner and workspace roles list it at once: their lists do not read this table).
import type Database from "better-sqlite3";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS page_audience (
  user_id TEXT NOT NULL,
  page_id TEXT NOT NULL,
  updated_pos INTEGER NOT NULL,
  PRIMARY KEY (user_id, page_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS page_audience_order ON page_audience (user_id, updated_pos, page_id);
CREATE INDEX IF NOT EXISTS page_audience_page ON page_audience (page_id);
CREATE TABLE IF NOT EXISTS page_audience_unfilled (id INTEGER PRIMARY KEY CHECK (id = 1));
CREATE TABLE IF NOT EXISTS page_audience_pending (
  page_id TEXT PRIMARY KEY,
  cleared INTEGER NOT NULL DEFAULT 0,
  after_user TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;`;
export const pageAudienceModel: SqliteModel = {
  schema,
  tables: ["page_audience", "page_audience_pending"],
  queryIndexes: ["page_audience_order"],
};

/** Who holds a grant, directly or through a group; `@user` narrows it to one user. */
const HOLDERS = (where: string) => `holders(user_id, entity_type, entity_id) AS (
  SELECT user_id, entity_type, entity_id FROM grants WHERE ${where.replaceAll("$user", "user_id")}
  UNION SELECT m.member_id, g.entity_type, g.entity_id FROM group_members m JOIN group_grants g ON g.group_id = m.group_id
    WHERE ${where.replaceAll("$user", "m.member_id")})`;

const LISTED_OF_HOLDERS = `SELECT h.user_id, p.id, p.updated_pos FROM holders h JOIN pages p ON p.id = h.entity_id
    WHERE h.entity_type = 'page' AND p.deleted = 0
  UNION ALL SELECT h.user_id, a.page_id, a.updated_pos FROM holders h JOIN page_ancestors a ON a.folder_id = h.entity_id
    WHERE h.entity_type = 'folder'`;

/** Every user's listing at once: what a rebuild ends with. */
const FILL_ALL = `INSERT OR IGNORE INTO page_audience (user_id, page_id, updated_pos)
  WITH ${HOLDERS("true")} ${LISTED_OF_HOLDERS}`;
const FILL_USER = `INSERT OR IGNORE INTO page_audience (user_id, page_id, updated_pos)
  WITH ${HOLDERS("$user = @user")} ${LISTED_OF_HOLDERS}`;
/** The users a live page is granted to, on itself or on a folder above it, directly or through a group. */
/** The users a live page is granted to, on itself or on a folder above it, directly or through a group. */
const AUDIENCE_OF_PAGE = `targets(entity_type, entity_id) AS (
    SELECT 'page', @page UNION ALL SELECT 'folder', folder_id FROM page_ancestors WHERE page_id = @page),
  users(user_id) AS (
    SELECT g.user_id FROM targets t JOIN grants g ON g.entity_type = t.entity_type AND g.entity_id = t.entity_id
    UNION SELECT m.member_id FROM targets t
      CROSS JOIN group_grants g ON g.entity_type = t.entity_type AND g.entity_id = t.entity_id
      CROSS JOIN group_members m ON m.group_id = g.group_id)`;
const FILL_PAGE = `INSERT OR IGNORE INTO page_audience (user_id, page_id, updated_pos)
  WITH ${AUDIENCE_OF_PAGE}
  SELECT u.user_id, p.id, p.updated_pos FROM users u JOIN pages p ON p.id = @page AND p.deleted = 0`;
/** A pending page's next readers in user order, after the cursor `@after` (none once the page is gone). */
const AUDIENCE_AFTER = `WITH ${AUDIENCE_OF_PAGE}
  SELECT user_id FROM users WHERE user_id > @after AND EXISTS (SELECT 1 FROM pages WHERE id = @page AND deleted = 0)
  ORDER BY user_id LIMIT CAST(@limit AS INTEGER)`;

/**
 * A grant added (or its permission changed): the rows it gives its holder, or each member of its group, on the
 * page or on every page below the folder, if the grant still stands when the batch settles. A grant only adds
 * rows, so the holders' other rows stay as they are: the work is the rows the grant gives, not each holder's
 * whole listing.
 */
const GRANTED_TO = (holders: string) => `INSERT OR IGNORE INTO page_audience (user_id, page_id, updated_pos)
  WITH holders(user_id) AS (${holders})
  SELECT h.user_id, p.id, p.updated_pos FROM holders h JOIN pages p ON p.id = @entity
    WHERE @type = 'page' AND p.deleted = 0
  UNION ALL SELECT h.user_id, a.page_id, a.updated_pos FROM holders h JOIN page_ancestors a ON a.folder_id = @entity
    WHERE @type = 'folder'`;
const GRANTED_TO_USER = GRANTED_TO(
  "SELECT user_id FROM grants WHERE user_id = @holder AND entity_type = @type AND entity_id = @entity",
);
const GRANTED_TO_GROUP =
  GRANTED_TO(`SELECT m.member_id FROM group_grants g JOIN group_members m ON m.group_id = g.group_id
    WHERE g.group_id = @holder AND g.entity_type = @type AND g.entity_id = @entity`);

/** The listing rows one batch, or one slice of pending pages, writes before the rest waits (a few tens of ms). */
const ROWS_PER_SLICE = 250;
/** Pending pages one read of the pending table takes, within a slice. */
const PENDING_PER_READ = 64;

/** A listing row counts only once its page is filled (not pending): `row` names the page_audience row. */
export const FILLED = (row: string) =>
  `NOT EXISTS (SELECT 1 FROM page_audience_pending q WHERE q.page_id = ${row}.page_id)`;

/** One user's listing, newest first from a cursor: a single range scan of page_audience_order. */
export const LISTED_FOR_USER = `SELECT page_id AS id, updated_pos FROM page_audience WHERE user_id = ? AND (updated_pos, page_id) < (?, ?)
  AND ${FILLED("page_audience")}
  ORDER BY updated_pos DESC, page_id DESC LIMIT CAST(? AS INTEGER)`;

interface Pending {
  readonly page_id: string;
  readonly cleared: number;
  readonly after_user: string;
}

interface Granted {
  readonly holder: string;
  readonly type: "page" | "folder";
  readonly entity: string;
}

interface Marked {
  readonly users: Set<string>;
  readonly pages: Set<string>;
  /** Grants added, keyed by holder kind: only the rows they give are inserted. */
  readonly granted: { readonly user: Granted[]; readonly group: Granted[] };
}

export class SqlitePageAudience {
  private readonly statements;
  private readonly marked = new WeakMap<SqliteBatch, Marked>();
  /** While the log is replayed from the start, nothing is recomputed per batch: endRebuild() fills it once. */
  private rebuilding = false;
  /** A slice of pending pages is scheduled. */
  private scheduled = false;
  private closed = false;

  /** A rebuild that stopped before its end (the process stopped) left the listing unfilled: it is filled now. */
  constructor(private readonly db: Database.Database) {
    this.statements = {
      unfilled: db.prepare<[], number>("SELECT id FROM page_audience_unfilled").pluck(),
      membersOf: db.prepare<[string], string>("SELECT member_id FROM group_members WHERE group_id = ?").pluck(),
      clearUser: db.prepare<[string]>("DELETE FROM page_audience WHERE user_id = ?"),
      clearPage: db.prepare<[string]>("DELETE FROM page_audience WHERE page_id = ?"),
      fillUser: db.prepare<[{ user: string }]>(FILL_USER),
      fillPage: db.prepare<[{ page: string }]>(FILL_PAGE),
      grantedToUser: db.prepare<[Granted]>(GRANTED_TO_USER),
      grantedToGroup: db.prepare<[Granted]>(GRANTED_TO_GROUP),
      holdersOfGroup: db
        .prepare<[Granted], number>(
          "SELECT count(*) FROM group_members m JOIN group_grants g ON g.group_id = m.group_id WHERE g.group_id = @holder AND g.entity_type = @type AND g.entity_id = @entity",
        )
        .pluck(),
      pagesBelow: db.prepare<[string], number>("SELECT count(*) FROM page_ancestors WHERE folder_id = ?").pluck(),
      // Pending again from the start (cleared, then filled from the first reader on) if it was already.
      pendPage: db.prepare<[string]>(
        `INSERT INTO page_audience_pending (page_id) VALUES (?)
         ON CONFLICT (page_id) DO UPDATE SET cleared = 0, after_user = ''`,
      ),
      pendBelow: db.prepare<[string]>(
        `INSERT INTO page_audience_pending (page_id) SELECT page_id FROM page_ancestors WHERE folder_id = ? AND true
         ON CONFLICT (page_id) DO UPDATE SET cleared = 0, after_user = ''`,
      ),
      filled: db.prepare<[string]>("DELETE FROM page_audience_pending WHERE page_id = ?"),
      pending: db.prepare<[number], Pending>(
        "SELECT page_id, cleared, after_user FROM page_audience_pending LIMIT CAST(? AS INTEGER)",
      ),
      rowsOfPage: db.prepare<[string], number>("SELECT count(*) FROM page_audience WHERE page_id = ?").pluck(),
      audienceSize: db
        .prepare<[{ page: string }], number>(`WITH ${AUDIENCE_OF_PAGE} SELECT count(*) FROM users`)
        .pluck(),
      anyPending: db.prepare<[], number>("SELECT 1 FROM page_audience_pending LIMIT 1").pluck(),
      clearSome: db.prepare<[{ page: string; limit: number }]>(
        `DELETE FROM page_audience WHERE page_id = @page
           AND user_id IN (SELECT user_id FROM page_audience WHERE page_id = @page LIMIT CAST(@limit AS INTEGER))`,
      ),
      cleared: db.prepare<[string]>("UPDATE page_audience_pending SET cleared = 1 WHERE page_id = ?"),
      audienceAfter: db.prepare<[{ page: string; after: string; limit: number }], string>(AUDIENCE_AFTER).pluck(),
      fillUsers: db.prepare<[{ page: string; users: string }]>(
        `INSERT OR IGNORE INTO page_audience (user_id, page_id, updated_pos)
         SELECT u.value, p.id, p.updated_pos FROM json_each(@users) u JOIN pages p ON p.id = @page AND p.deleted = 0`,
      ),
      advance: db.prepare<[string, string]>("UPDATE page_audience_pending SET after_user = ? WHERE page_id = ?"),
      touch: db.prepare<[number, string]>("UPDATE page_audience SET updated_pos = ? WHERE page_id = ?"),
    };
    if (this.statements.unfilled.get() !== undefined) this.endRebuild();
    // Pages a process left pending when it stopped are filled now.
    if (this.statements.anyPending.get() !== undefined) this.afterCommit();
  }

  /** The user's grants (or their groups) changed: their whole listing is recomputed when the batch settles. */
  userChanged(tx: SqliteBatch, userId: string): void {
    this.of(tx).users.add(userId);
  }

  /** What the group holds changed: each current member's listing is recomputed (read now, before any removal). */
  groupChanged(tx: SqliteBatch, groupId: string): void {
    const users = this.of(tx).users;
    for (const memberId of this.statements.membersOf.all(groupId)) users.add(memberId);
  }

  /**
   * A grant was added or its permission changed (`holder` a user or a group): the rows it gives are added when the
   * batch settles, without recomputing each holder's listing (a listing does not depend on the permission).
   */
  grantAdded(
    tx: SqliteBatch,
    holder: { userId: string } | { groupId: string },
    type: "page" | "folder",
    entity: string,
  ): void {
    const granted = this.of(tx).granted;
    if ("userId" in holder) granted.user.push({ holder: holder.userId, type, entity });
    else granted.group.push({ holder: holder.groupId, type, entity });
  }

  /** The page was created, moved, trashed, restored or purged: who lists it is recomputed. */
  pageChanged(tx: SqliteBatch, pageId: string): void {
    this.of(tx).pages.add(pageId);
  }

  /** The page's place in the order moved: its rows move with it (run at once, within the batch). */
  pageTouched(pageId: string, position: number): void {
    if (!this.rebuilding) this.statements.touch.run(position, pageId);
  }

  /**
   * Called by the store after every writer has settled the batch, before it commits: new grants, then pages, then
   * users, about ROWS_PER_SLICE rows at most for the grants and pages (the rest pending, see above). A user's
   * listing is always recomputed at once, since that is how a lost grant or membership leaves it.
   */
  settle(tx: SqliteBatch): void {
    const marked = this.marked.get(tx);
    if (!marked || this.rebuilding) return;
    this.marked.delete(tx);
    let budget = ROWS_PER_SLICE;
    // Computed from the tables as the batch leaves them, like the fills below: a grant revoked later in the batch
    // gives nothing here (and its revocation recomputes its holders).
    const grants = [
      ...marked.granted.user.map((granted) => ({ granted, give: this.statements.grantedToUser, holders: 1 })),
      ...marked.granted.group.map((granted) => ({
        granted,
        give: this.statements.grantedToGroup,
        holders: this.statements.holdersOfGroup.get(granted) ?? 0,
      })),
    ];
    for (const { granted, give, holders } of grants) {
      const pages = granted.type === "page" ? 1 : (this.statements.pagesBelow.get(granted.entity) ?? 0);
      if (holders * pages <= budget) budget -= give.run(granted).changes;
      // Too many rows for this batch: the pages the grant reaches are filled in slices, from every grant then.
      else if (granted.type === "page") this.statements.pendPage.run(granted.entity);
      else this.statements.pendBelow.run(granted.entity);
    }
    for (const page of marked.pages) {
      // Its old rows and its readers, counted through the same indexes the fill walks.
      const rows = (this.statements.rowsOfPage.get(page) ?? 0) + (this.statements.audienceSize.get({ page }) ?? 0);
      if (rows <= budget) budget -= this.fillPage(page);
      else this.statements.pendPage.run(page);
    }
    for (const user of marked.users) {
      this.statements.clearUser.run(user);
      this.statements.fillUser.run({ user });
    }
  }

  /**
   * A batch committed: pending pages are filled in slices, each its own transaction, yielding between them. A
   * slice never runs inside a batch's open transaction; it waits for the batch to end.
   */
  afterCommit(): void {
    if (this.scheduled || this.closed || this.rebuilding) return;
    this.scheduled = true;
    setImmediate(() => this.fillSlice());
  }

  /** Stops filling: what is still pending stays marked in the file and is filled by the next store to open it. */
  close(): void {
    this.closed = true;
  }

  /** The page's rows recomputed, its pending mark taken away; the rows written and removed. */
  private fillPage(page: string): number {
    const cleared = this.statements.clearPage.run(page).changes;
    const filled = this.statements.fillPage.run({ page }).changes;
    this.statements.filled.run(page);
    return cleared + filled;
  }

  /**
   * Works on a pending page for at most `budget` rows: first its old rows go (it is unlisted meanwhile), then
   * its readers' rows are written in user order from the cursor; once the last reader is written it is listed
   * again. Returns the rows written or removed.
   */
  private advance(pending: Pending, budget: number): number {
    const page = pending.page_id;
    let used = 0;
    if (pending.cleared === 0) {
      used = this.statements.clearSome.run({ page, limit: budget }).changes;
      if (used >= budget) return used;
      this.statements.cleared.run(page);
    }
    const limit = budget - used;
    if (limit <= 0) return used;
    const users = this.statements.audienceAfter.all({ page, after: pending.after_user, limit });
    if (users.length > 0) this.statements.fillUsers.run({ page, users: JSON.stringify(users) });
    const last = users.at(-1);
    if (users.length < limit || last === undefined) this.statements.filled.run(page);
    else this.statements.advance.run(last, page);
    return used + users.length;
  }

  private fillSlice(): void {
    this.scheduled = false;
    if (this.closed || this.rebuilding) return;
    if (this.db.inTransaction) {
      this.scheduled = true;
      setTimeout(() => this.fillSlice(), 5).unref();
      return;
    }
    if (this.statements.anyPending.get() === undefined) return;
    const more = this.db
      .transaction(() => {
        let budget = ROWS_PER_SLICE;
        for (;;) {
          const pages = this.statements.pending.all(PENDING_PER_READ);
          for (const pending of pages) {
            budget -= this.advance(pending, budget);
            if (budget <= 0) return true;
          }
          if (pages.length < PENDING_PER_READ) return false;
        }
      })
      .immediate();
    if (more) this.afterCommit();
  }

  /** Called once the read models were emptied; the mark stays until endRebuild() has filled the listing. */
  beginRebuild(): void {
    this.rebuilding = true;
    this.db.exec("INSERT OR IGNORE INTO page_audience_unfilled (id) VALUES (1)");
  }

  /** After the replay, with every index back: each user's listing from the grants in one statement. */
  endRebuild(): void {
    this.db.transaction(() => {
      this.db.exec("DELETE FROM page_audience");
      this.db.exec("DELETE FROM page_audience_pending");
      this.db.exec(FILL_ALL);
      this.db.exec("DELETE FROM page_audience_unfilled");
    })();
    this.rebuilding = false;
  }

  private of(tx: SqliteBatch): Marked {
    let marked = this.marked.get(tx);
    if (!marked) {
      marked = { users: new Set(), pages: new Set(), granted: { user: [], group: [] } };
      this.marked.set(tx, marked);
    }
    return marked;
  }
}
