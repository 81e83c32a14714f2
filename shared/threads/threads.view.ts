// Read model of comment threads: each thread with its comments, listed per page newest thread first.
import type { Anchor, ThreadStatus } from "./thread.decider.ts";

export interface CommentRecord {
  readonly id: string;
  readonly threadId: string;
  readonly authorId: string;
  /** "" once deleted: the read model forgets a deleted comment's words. */
  readonly body: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly deletedAt: string | null;
  /** Global position of the comment's CommentAdded: comments are shown oldest first. */
  readonly createdPosition: number;
}

export interface ThreadRecord {
  readonly id: string;
  readonly pageId: string;
  readonly anchor: Anchor;
  readonly status: ThreadStatus;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly resolvedBy: string | null;
  readonly resolvedAt: string | null;
  /** Global position of the thread's ThreadOpened: the list's order and cursor key. */
  readonly createdPosition: number;
  readonly comments: readonly CommentRecord[];
}

type ThreadFilter = ThreadStatus | "all";

export interface ThreadsQuery {
  readonly pageId: string;
  readonly status: ThreadFilter;
  /** Resume after this thread creation position (exclusive); null starts at the newest. */
  readonly before: number | null;
  /** Threads to return; adapters return up to limit + 1 so the caller knows whether more follow. */
  readonly limit: number;
}

/** Where a comment lives, so a command addressed by comment id can load the right thread stream. */
export interface CommentLocation {
  readonly threadId: string;
  readonly pageId: string;
}

export interface ThreadsView {
  get(threadId: string): Promise<ThreadRecord | null>;
  locateComment(commentId: string): Promise<CommentLocation | null>;
  list(query: ThreadsQuery): Promise<ThreadRecord[]>;
}

export interface ThreadsWriter<Tx> {
  /**
   * The thread as the batch sees it, carrying only the comment `commentId` (when given and stored): what one
   * event can change, read without the rest of a thread of any length.
   */
  get(tx: Tx, threadId: string, commentId: string | null): Promise<ThreadRecord | null>;
  /** Stores the thread (as `threadRecord` folds it) and the comments it carries; its other comments stay. */
  put(tx: Tx, thread: ThreadRecord): Promise<void>;
  /** The ids of the page's threads, as the batch sees them. */
  threadIdsOf(tx: Tx, pageId: string): Promise<string[]>;
  /** The page was purged: its threads and their comments go. */
  removePage(tx: Tx, pageId: string): Promise<void>;
}
