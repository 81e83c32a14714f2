// Comment threads: one document per thread (`threads`) and one per comment (`thread_comments`, keyed by its id and
// indexed by thread), so no document grows with a thread's length: a thread of any number of comments stays far
// from MongoDB's 16 MiB document limit, which a thread embedding its comments reached at about 1,650 long ASCII
// comments (560 CJK ones) and then refused every later batch. A batch writes both in its transaction.
import { z } from "zod";
import { anchorSchema, threadStatusSchema } from "../../threads/thread.decider.ts";
import type {
  CommentLocation,
  CommentRecord,
  ThreadRecord,
  ThreadsQuery,
  ThreadsView,
  ThreadsWriter,
} from "../../threads/threads.view.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

const commentSchema = z.object({
  _id: z.string(),
  threadId: z.string(),
  authorId: z.string(),
  body: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.string().nullable(),
  createdPosition: z.number(),
});
const threadSchema = z.object({
  _id: z.string(),
  pageId: z.string(),
  anchor: anchorSchema,
  status: threadStatusSchema,
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  resolvedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  createdPosition: z.number(),
});
type ThreadDoc = z.infer<typeof threadSchema>;
type CommentDoc = z.infer<typeof commentSchema>;

export const threadsModel: MongoModel = {
  collections: ["threads", "thread_comments"],
  indexes: [
    {
      collection: "threads",
      name: "threads_page",
      keys: { pageId: 1, createdPosition: -1 },
      serves: "GET /pages/{id}/threads?status=all, newest thread first",
    },
    {
      collection: "threads",
      name: "threads_page_status",
      keys: { pageId: 1, status: 1, createdPosition: -1 },
      serves: "GET /pages/{id}/threads?status=open|resolved",
    },
    {
      collection: "thread_comments",
      name: "thread_comments_thread",
      keys: { threadId: 1, createdPosition: 1 },
      serves: "a thread's comments, oldest first (one query for a page of threads)",
    },
  ],
};

const threads = (ref: GenerationRef) => ref.current().collection<ThreadDoc>("threads");
const comments = (ref: GenerationRef) => ref.current().collection<CommentDoc>("thread_comments");
const toComment = (doc: unknown): CommentRecord => {
  const { _id, ...rest } = commentSchema.parse(doc);
  return { id: _id, ...rest };
};
const toRecord = (doc: unknown, its: readonly CommentRecord[]): ThreadRecord => {
  const { _id, ...rest } = threadSchema.parse(doc);
  return { id: _id, ...rest, comments: [...its].sort((a, b) => a.createdPosition - b.createdPosition) };
};

export class MongoThreadsWriter implements ThreadsWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async get(tx: MongoBatch, threadId: string, commentId: string | null): Promise<ThreadRecord | null> {
    const [thread, comment] = await Promise.all([
      threads(this.ref).findOne({ _id: threadId }, tx.options),
      commentId === null ? null : comments(this.ref).findOne({ _id: commentId, threadId }, tx.options),
    ]);
    return thread ? toRecord(thread, comment ? [toComment(comment)] : []) : null;
  }

  async put(tx: MongoBatch, thread: ThreadRecord): Promise<void> {
    const { id, comments: carried, ...rest } = thread;
    await threads(this.ref).replaceOne({ _id: id }, rest, { upsert: true, ...tx.options });
    // Keyed by the comment's id: a batch applied twice writes the same document.
    for (const { id: commentId, ...comment } of carried)
      await comments(this.ref).replaceOne({ _id: commentId }, comment, { upsert: true, ...tx.options });
  }

  async threadIdsOf(tx: MongoBatch, pageId: string): Promise<string[]> {
    return (
      await threads(this.ref)
        .find({ pageId }, { projection: { _id: 1 }, ...tx.options })
        .toArray()
    ).map((doc) => doc._id);
  }

  async removePage(tx: MongoBatch, pageId: string): Promise<void> {
    const threadIds = await this.threadIdsOf(tx, pageId);
    if (threadIds.length === 0) return;
    // Comments first: a batch applied again after a crash between the two still finds the threads to go by.
    await comments(this.ref).deleteMany({ threadId: { $in: threadIds } }, tx.options);
    await threads(this.ref).deleteMany({ pageId }, tx.options);
  }
}

export class MongoThreadsView implements ThreadsView {
  constructor(private readonly ref: GenerationRef) {}

  /** The comments of these threads, in one query through thread_comments_thread. */
  private async commentsOf(threadIds: readonly string[]): Promise<Map<string, CommentRecord[]>> {
    const byThread = new Map<string, CommentRecord[]>(threadIds.map((id) => [id, []]));
    if (threadIds.length === 0) return byThread;
    const docs = await comments(this.ref)
      .find({ threadId: { $in: [...threadIds] } })
      .sort({ threadId: 1, createdPosition: 1 })
      .toArray();
    for (const doc of docs) {
      const comment = toComment(doc);
      byThread.get(comment.threadId)?.push(comment);
    }
    return byThread;
  }

  async get(threadId: string): Promise<ThreadRecord | null> {
    const doc = await threads(this.ref).findOne({ _id: threadId });
    return doc ? toRecord(doc, (await this.commentsOf([threadId])).get(threadId) ?? []) : null;
  }

  async locateComment(commentId: string): Promise<CommentLocation | null> {
    const comment = await comments(this.ref).findOne({ _id: commentId }, { projection: { threadId: 1 } });
    if (!comment) return null;
    const thread = await threads(this.ref).findOne({ _id: comment.threadId }, { projection: { _id: 1, pageId: 1 } });
    return thread ? { threadId: thread._id, pageId: thread.pageId } : null;
  }

  async list(query: ThreadsQuery): Promise<ThreadRecord[]> {
    const filter = {
      pageId: query.pageId,
      createdPosition: { $lt: query.before ?? Number.MAX_SAFE_INTEGER },
      ...(query.status === "all" ? {} : { status: query.status }),
    };
    const docs = await threads(this.ref)
      .find(filter)
      .sort({ createdPosition: -1 })
      .limit(query.limit + 1)
      .toArray();
    const byThread = await this.commentsOf(docs.map((doc) => doc._id));
    return docs.map((doc) => toRecord(doc, byThread.get(doc._id) ?? []));
  }
}
