// The comment thread and comment records clients see (docs/guide/requests.md, Records). Author names and images are looked up in the
// users read model when a thread is read, so a profile change shows on every comment at once.
import { ERASED_USER_NAME } from "../erasure/erased-values.ts";
import { unreachableMentionsField } from "../mentions/mentions.resource.ts";
import { z } from "zod";
import type { UserRecord, UsersView } from "../users/users.view.ts";
import { threadStatusSchema } from "./thread.decider.ts";
import type { CommentRecord, ThreadRecord } from "./threads.view.ts";

const commentResource = z
  .object({
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
  })
  .meta({ id: "Comment", description: "One comment of a thread" });
type CommentResource = z.infer<typeof commentResource>;

export const threadResource = z
  .object({
    id: z.uuid(),
    pageId: z.uuid(),
    anchor: z.object({
      quote: z.string(),
      prefix: z.string(),
      suffix: z.string(),
      found: z.boolean().meta({
        description: "Whether the page's markdown contains the quote now: false when it never did, or was edited away",
      }),
    }),
    status: threadStatusSchema,
    createdBy: z.uuid(),
    createdAt: z.string(),
    updatedAt: z.string(),
    resolvedBy: z.uuid().nullable(),
    resolvedAt: z.string().nullable(),
    comments: z.array(commentResource),
  })
  .meta({ id: "CommentThread", description: "A comment thread on a quote of a page, with its comments" });
export type ThreadResource = z.infer<typeof threadResource>;

/** The body of every single-thread answer. */
export const threadReply = z
  .object({ thread: threadResource })
  .meta({ id: "CommentThreadAnswer", description: "The answer of a write to a thread: the whole thread" });

export const commentWriteReply = z
  .object({ thread: threadResource, unreachableMentions: unreachableMentionsField })
  .meta({
    id: "CommentWriteAnswer",
    description: "The answer of a write of a comment: the whole thread, and the mentions of its body that reach nobody",
  });

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

/** `markdown`: the page's markdown as of the answer, which the anchor's quote is looked for in. */
function toThreadResource(
  thread: ThreadRecord,
  authors: ReadonlyMap<string, UserRecord>,
  markdown: string,
): ThreadResource {
  return {
    id: thread.id,
    pageId: thread.pageId,
    anchor: { ...thread.anchor, found: markdown.includes(thread.anchor.quote) },
    status: thread.status,
    createdBy: thread.createdBy,
    createdAt: thread.createdAt,
    updatedAt: thread.updatedAt,
    resolvedBy: thread.resolvedBy,
    resolvedAt: thread.resolvedAt,
    comments: thread.comments.map((comment) => toCommentResource(comment, authors.get(comment.authorId))),
  };
}

/** Threads of one page as resources, with every author's profile fetched in one lookup; `markdown` is the page's. */
export async function presentThreads(
  users: UsersView,
  threads: readonly ThreadRecord[],
  markdown: string,
): Promise<ThreadResource[]> {
  const authors = await users.getMany(threads.flatMap((thread) => thread.comments.map((comment) => comment.authorId)));
  return threads.map((thread) => toThreadResource(thread, authors, markdown));
}
