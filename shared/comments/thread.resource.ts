// The comment thread and comment records clients see (docs/api-decisions.md, Records). Author names and images are looked up in the
// users read model when a thread is read, so a profile change shows on every comment at once.
import { ERASED_USER_NAME } from "../erasure/sealed-fields.ts";
import { z } from "zod";
import type { UserRecord, UsersView } from "../users/users.view.ts";
import { threadStatusSchema } from "./thread.decider.ts";
import type { CommentRecord, ThreadRecord } from "./threads.view.ts";

export const commentResource = z.object({
  id: z.uuid(),
  threadId: z.uuid(),
  authorId: z.uuid(),
  authorName: z.string(),
  authorImage: z.string().nullable(),
  /** "" for a deleted comment. */
  body: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.string().nullable(),
});
export type CommentResource = z.infer<typeof commentResource>;

export const threadResource = z.object({
  id: z.uuid(),
  pageId: z.uuid(),
  anchor: z.object({ quote: z.string(), prefix: z.string(), suffix: z.string() }),
  status: threadStatusSchema,
  createdBy: z.uuid(),
  createdAt: z.string(),
  updatedAt: z.string(),
  resolvedBy: z.uuid().nullable(),
  resolvedAt: z.string().nullable(),
  comments: z.array(commentResource),
});
export type ThreadResource = z.infer<typeof threadResource>;

/** The body of every single-thread answer. */
export const threadReply = z.object({ thread: threadResource });

function toCommentResource(comment: CommentRecord, author: UserRecord | undefined): CommentResource {
  return {
    id: comment.id,
    threadId: comment.threadId,
    authorId: comment.authorId,
    // Every author registered once: one with no record was erased.
    authorName: author?.name ?? ERASED_USER_NAME,
    authorImage: author?.image ?? null,
    body: comment.deletedAt === null ? comment.body : "",
    createdAt: comment.createdAt,
    updatedAt: comment.updatedAt,
    deletedAt: comment.deletedAt,
  };
}

export function toThreadResource(thread: ThreadRecord, authors: ReadonlyMap<string, UserRecord>): ThreadResource {
  return {
    id: thread.id,
    pageId: thread.pageId,
    anchor: thread.anchor,
    status: thread.status,
    createdBy: thread.createdBy,
    createdAt: thread.createdAt,
    updatedAt: thread.updatedAt,
    resolvedBy: thread.resolvedBy,
    resolvedAt: thread.resolvedAt,
    comments: thread.comments.map((comment) => toCommentResource(comment, authors.get(comment.authorId))),
  };
}

/** Threads as resources, with every author's profile fetched in one lookup. */
export async function presentThreads(users: UsersView, threads: readonly ThreadRecord[]): Promise<ThreadResource[]> {
  const authors = await users.getMany(threads.flatMap((thread) => thread.comments.map((comment) => comment.authorId)));
  return threads.map((thread) => toThreadResource(thread, authors));
}
