// Comment threads as one document each, their comments embedded oldest first: a thread and its comments are
// read and written together, so a reader never sees one without the other.
import { z } from "zod";
import { anchorSchema, threadStatusSchema } from "../../comments/thread.decider.ts";
import type { CommentLocation, CommentRecord, ThreadRecord, ThreadsQuery, ThreadsView, ThreadsWriter, ThreadStatusChange } from "../../comments/threads.view.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

const commentSchema = z.object({
  id: z.string(),
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
  comments: z.array(commentSchema),
});
type ThreadDoc = z.infer<typeof threadSchema>;

export const threadsModel: MongoModel = {
  collections: ["threads"],
  indexes: [
    { collection: "threads", name: "threads_page", keys: { pageId: 1, createdPosition: -1 }, serves: "GET /pages/{id}/threads?status=all, newest thread first" },
    { collection: "threads", name: "threads_page_status", keys: { pageId: 1, status: 1, createdPosition: -1 }, serves: "GET /pages/{id}/threads?status=open|resolved" },
    { collection: "threads", name: "threads_comment", keys: { "comments.id": 1 }, serves: "the thread a comment belongs to (edits and deletions by comment id)" },
  ],
};

const threads = (ref: GenerationRef) => ref.current().collection<ThreadDoc>("threads");
const toRecord = (doc: unknown): ThreadRecord => {
  const { _id, comments, ...rest } = threadSchema.parse(doc);
  return { id: _id, ...rest, comments: [...comments].sort((a, b) => a.createdPosition - b.createdPosition) };
};

export class MongoThreadsWriter implements ThreadsWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async open(tx: MongoBatch, thread: Omit<ThreadRecord, "comments">): Promise<void> {
    const { id, ...rest } = thread;
    // A thread opened again (a batch applied twice) keeps the comments it already has.
    await threads(this.ref).updateOne({ _id: id }, { $set: rest, $setOnInsert: { comments: [] } }, { upsert: true, ...tx.options });
  }

  async addComment(tx: MongoBatch, comment: CommentRecord): Promise<void> {
    const collection = threads(this.ref);
    await collection.updateOne({ _id: comment.threadId }, { $pull: { comments: { id: comment.id } } }, tx.options);
    await collection.updateOne({ _id: comment.threadId }, { $push: { comments: comment }, $set: { updatedAt: comment.createdAt } }, tx.options);
  }

  async editComment(tx: MongoBatch, commentId: string, body: string, at: string): Promise<void> {
    await threads(this.ref).updateOne(
      { "comments.id": commentId },
      { $set: { "comments.$.body": body, "comments.$.updatedAt": at, updatedAt: at } },
      tx.options,
    );
  }

  async deleteComment(tx: MongoBatch, commentId: string, at: string): Promise<void> {
    await threads(this.ref).updateOne(
      { "comments.id": commentId },
      { $set: { "comments.$.body": "", "comments.$.updatedAt": at, "comments.$.deletedAt": at, updatedAt: at } },
      tx.options,
    );
  }

  async setStatus(tx: MongoBatch, threadId: string, change: ThreadStatusChange): Promise<void> {
    await threads(this.ref).updateOne({ _id: threadId }, { $set: { ...change } }, tx.options);
  }
}

export class MongoThreadsView implements ThreadsView {
  constructor(private readonly ref: GenerationRef) {}

  async get(threadId: string): Promise<ThreadRecord | null> {
    const doc = await threads(this.ref).findOne({ _id: threadId });
    return doc ? toRecord(doc) : null;
  }

  async locateComment(commentId: string): Promise<CommentLocation | null> {
    const doc = await threads(this.ref).findOne({ "comments.id": commentId }, { projection: { _id: 1, pageId: 1 } });
    return doc ? { threadId: doc._id, pageId: doc.pageId } : null;
  }

  async list(query: ThreadsQuery): Promise<ThreadRecord[]> {
    const filter = {
      pageId: query.pageId,
      createdPosition: { $lt: query.before ?? Number.MAX_SAFE_INTEGER },
      ...(query.status === "all" ? {} : { status: query.status }),
    };
    const docs = await threads(this.ref).find(filter).sort({ createdPosition: -1 }).limit(query.limit + 1).toArray();
    return docs.map(toRecord);
  }
}
