import type Database from "better-sqlite3";
import { threadStatusSchema } from "../../threads/thread.decider.ts";
import type {
  CommentLocation,
  CommentRecord,
  ThreadRecord,
  ThreadsQuery,
  ThreadsView,
  ThreadsWriter,
} from "../../threads/threads.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS comment_threads (
  id TEXT PRIMARY KEY,
  page_id TEXT NOT NULL,
  anchor_quote TEXT NOT NULL,
  anchor_prefix TEXT NOT NULL,
  anchor_suffix TEXT NOT NULL,
  status TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  resolved_by TEXT,
  resolved_at TEXT,
  created_pos INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS comment_threads_page ON comment_threads (page_id, created_pos);
CREATE INDEX IF NOT EXISTS comment_threads_page_status ON comment_threads (page_id, status, created_pos);
CREATE TABLE IF NOT EXISTS thread_comments (
  id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL,
  author_id TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT,
  created_pos INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS thread_comments_thread ON thread_comments (thread_id, created_pos);`;
export const threadsModel: SqliteModel = {
  schema,
  tables: ["comment_threads", "thread_comments"],
  queryIndexes: ["comment_threads_page", "comment_threads_page_status"],
};

type ThreadRow = {
  id: string;
  page_id: string;
  anchor_quote: string;
  anchor_prefix: string;
  anchor_suffix: string;
  status: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  resolved_by: string | null;
  resolved_at: string | null;
  created_pos: number;
};
type CommentRow = {
  id: string;
  thread_id: string;
  author_id: string;
  body: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  created_pos: number;
};

const toComment = (row: CommentRow): CommentRecord => ({
  id: row.id,
  threadId: row.thread_id,
  authorId: row.author_id,
  body: row.body,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  deletedAt: row.deleted_at,
  createdPosition: row.created_pos,
});
const toThread = (row: ThreadRow, comments: readonly CommentRecord[]): ThreadRecord => ({
  id: row.id,
  pageId: row.page_id,
  anchor: { quote: row.anchor_quote, prefix: row.anchor_prefix, suffix: row.anchor_suffix },
  status: threadStatusSchema.parse(row.status),
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  resolvedBy: row.resolved_by,
  resolvedAt: row.resolved_at,
  createdPosition: row.created_pos,
  comments,
});

type ListParams = { page: string; status: string; before: number; limit: number };

export class SqliteThreadsWriter implements ThreadsWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      putThread: db.prepare(
        `INSERT OR REPLACE INTO comment_threads (id, page_id, anchor_quote, anchor_prefix, anchor_suffix, status, created_by, created_at, updated_at, resolved_by, resolved_at, created_pos)
         VALUES (@id, @pageId, @quote, @prefix, @suffix, @status, @createdBy, @createdAt, @updatedAt, @resolvedBy, @resolvedAt, @createdPosition)`,
      ),
      putComment: db.prepare(
        `INSERT OR REPLACE INTO thread_comments (id, thread_id, author_id, body, created_at, updated_at, deleted_at, created_pos)
         VALUES (@id, @threadId, @authorId, @body, @createdAt, @updatedAt, @deletedAt, @createdPosition)`,
      ),
      thread: db.prepare<[string], ThreadRow>("SELECT * FROM comment_threads WHERE id = ?"),
      comment: db.prepare<[string, string], CommentRow>("SELECT * FROM thread_comments WHERE id = ? AND thread_id = ?"),
      threadsOf: db.prepare<[string], string>("SELECT id FROM comment_threads WHERE page_id = ?").pluck(),
      removeComments: db.prepare<[string]>("DELETE FROM thread_comments WHERE thread_id = ?"),
      removeThreads: db.prepare<[string]>("DELETE FROM comment_threads WHERE page_id = ?"),
    };
  }

  async get(_tx: SqliteBatch, threadId: string, commentId: string | null): Promise<ThreadRecord | null> {
    const row = this.statements.thread.get(threadId);
    if (!row) return null;
    const comment = commentId === null ? undefined : this.statements.comment.get(commentId, threadId);
    return toThread(row, comment ? [toComment(comment)] : []);
  }

  async put(_tx: SqliteBatch, thread: ThreadRecord): Promise<void> {
    const { comments, ...head } = thread;
    this.statements.putThread.run({ ...head, ...head.anchor });
    for (const comment of comments) this.statements.putComment.run(comment);
  }

  async threadIdsOf(_tx: SqliteBatch, pageId: string): Promise<string[]> {
    return this.statements.threadsOf.all(pageId);
  }

  async removePage(_tx: SqliteBatch, pageId: string): Promise<void> {
    for (const threadId of this.statements.threadsOf.all(pageId)) this.statements.removeComments.run(threadId);
    this.statements.removeThreads.run(pageId);
  }
}

export class SqliteThreadsView implements ThreadsView {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      get: db.prepare<[string], ThreadRow>("SELECT * FROM comment_threads WHERE id = ?"),
      locate: db.prepare<[string], { thread_id: string; page_id: string }>(
        "SELECT c.thread_id, t.page_id FROM thread_comments c JOIN comment_threads t ON t.id = c.thread_id WHERE c.id = ?",
      ),
      list: db.prepare<[ListParams], ThreadRow>(
        `SELECT * FROM comment_threads WHERE page_id = @page AND created_pos < @before AND (@status = 'all' OR status = @status)
         ORDER BY created_pos DESC LIMIT CAST(@limit AS INTEGER)`,
      ),
      commentsOf: db.prepare<[string], CommentRow>(
        "SELECT * FROM thread_comments WHERE thread_id IN (SELECT value FROM json_each(?)) ORDER BY created_pos",
      ),
    };
  }

  private withComments(rows: readonly ThreadRow[]): ThreadRecord[] {
    const byThread = new Map<string, CommentRecord[]>(rows.map((row) => [row.id, []]));
    for (const row of this.statements.commentsOf.all(JSON.stringify([...byThread.keys()])))
      byThread.get(row.thread_id)?.push(toComment(row));
    return rows.map((row) => toThread(row, byThread.get(row.id) ?? []));
  }

  // Reads run in one transaction so a thread and its comments come from the same committed batch.
  async get(threadId: string): Promise<ThreadRecord | null> {
    return this.db.transaction(() => {
      const row = this.statements.get.get(threadId);
      return row ? (this.withComments([row])[0] ?? null) : null;
    })();
  }

  async locateComment(commentId: string): Promise<CommentLocation | null> {
    const row = this.statements.locate.get(commentId);
    return row ? { threadId: row.thread_id, pageId: row.page_id } : null;
  }

  async list(query: ThreadsQuery): Promise<ThreadRecord[]> {
    return this.db.transaction(() =>
      this.withComments(
        this.statements.list.all({
          page: query.pageId,
          status: query.status,
          before: query.before ?? Number.MAX_SAFE_INTEGER,
          limit: query.limit + 1,
        }),
      ),
    )();
  }
}
