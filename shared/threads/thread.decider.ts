// A comment thread anchored to text on a page: opened with its first comment, answered, edited, deleted
// comment by comment, resolved and reopened through its stream. Times come from the events' metadata.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import {
  commentIdSchema,
  pageIdSchema,
  threadIdSchema,
  userIdSchema,
  type CommentId,
  type PageId,
  type ThreadId,
  type UserId,
} from "../kernel/ids.ts";

export const threadStatusSchema = z.enum(["open", "resolved"]);
export type ThreadStatus = z.infer<typeof threadStatusSchema>;

/** The text a thread is attached to: the quoted words and a little context either side to find them again. */
export const anchorSchema = z.object({ quote: z.string().min(1), prefix: z.string(), suffix: z.string() });
export type Anchor = z.infer<typeof anchorSchema>;

export const threadEventSchemas = [
  z.object({
    type: z.literal("ThreadOpened"),
    data: z.object({ threadId: threadIdSchema, pageId: pageIdSchema, anchor: anchorSchema, createdBy: userIdSchema }),
  }),
  /**
   * `pageId`: the page whose key seals the body (shared/erasure/sealed-fields.ts), so purging the page erases
   * its comments in the log; absent on comments recorded before bodies were sealed.
   */
  z.object({
    type: z.literal("CommentAdded"),
    data: z.object({
      threadId: threadIdSchema,
      commentId: commentIdSchema,
      authorId: userIdSchema,
      body: z.string(),
      pageId: pageIdSchema.optional(),
    }),
  }),
  z.object({
    type: z.literal("CommentEdited"),
    data: z.object({
      threadId: threadIdSchema,
      commentId: commentIdSchema,
      body: z.string(),
      pageId: pageIdSchema.optional(),
    }),
  }),
  z.object({
    type: z.literal("CommentDeleted"),
    data: z.object({ threadId: threadIdSchema, commentId: commentIdSchema }),
  }),
  z.object({
    type: z.literal("ThreadResolved"),
    data: z.object({ threadId: threadIdSchema, resolvedBy: userIdSchema }),
  }),
  z.object({
    type: z.literal("ThreadReopened"),
    data: z.object({ threadId: threadIdSchema, reopenedBy: userIdSchema }),
  }),
] as const;
export type ThreadEvent = z.infer<(typeof threadEventSchemas)[number]>;

/** Every command but OpenThread names the page it was addressed through: a thread is only reachable via its own page. */
export type ThreadCommand =
  | {
      type: "OpenThread";
      threadId: ThreadId;
      pageId: PageId;
      anchor: Anchor;
      commentId: CommentId;
      authorId: UserId;
      body: string;
    }
  | { type: "AddReply"; threadId: ThreadId; pageId: PageId; commentId: CommentId; authorId: UserId; body: string }
  | { type: "EditComment"; threadId: ThreadId; pageId: PageId; commentId: CommentId; actorId: UserId; body: string }
  | { type: "DeleteComment"; threadId: ThreadId; pageId: PageId; commentId: CommentId; actorId: UserId }
  | { type: "SetThreadStatus"; threadId: ThreadId; pageId: PageId; status: ThreadStatus; actorId: UserId };

interface CommentState {
  readonly authorId: UserId;
  readonly body: string;
  readonly deleted: boolean;
}
type LiveThread = { status: ThreadStatus; pageId: PageId; comments: Readonly<Record<string, CommentState>> };
export type ThreadState = { status: "absent" } | LiveThread;

export const threadStream = (threadId: string): string => `thread-${threadId}`;

function onPage(state: ThreadState, pageId: PageId): LiveThread {
  if (state.status === "absent" || state.pageId !== pageId) throw new AppError("not_found", "thread not found");
  return state;
}

/** The comment an author acts on; anyone else is refused even when they may comment on the page. */
function ownComment(thread: LiveThread, commentId: CommentId, actorId: UserId, verb: string): CommentState {
  const comment = thread.comments[commentId];
  if (!comment) throw new AppError("not_found", "comment not found");
  if (comment.authorId !== actorId) throw new AppError("forbidden", `only its author may ${verb} a comment`);
  return comment;
}

function withComment(
  state: ThreadState,
  commentId: string,
  change: (comment: CommentState) => CommentState,
): ThreadState {
  if (state.status === "absent") return state;
  const comment = state.comments[commentId];
  return comment ? { ...state, comments: { ...state.comments, [commentId]: change(comment) } } : state;
}

export const threadDecider: Decider<ThreadCommand, ThreadState, ThreadEvent> = {
  initialState: { status: "absent" },
  decide(command, state) {
    const { threadId } = command;
    switch (command.type) {
      case "OpenThread": {
        if (state.status !== "absent") throw new AppError("conflict", "thread already exists");
        const { pageId, anchor, authorId, body } = command;
        return [
          { type: "ThreadOpened", data: { threadId, pageId, anchor, createdBy: authorId } },
          { type: "CommentAdded", data: { threadId, commentId: command.commentId, authorId, body, pageId } },
        ];
      }
      case "AddReply": {
        const thread = onPage(state, command.pageId);
        if (thread.comments[command.commentId]) throw new AppError("conflict", "comment already exists");
        return [
          {
            type: "CommentAdded",
            data: {
              threadId,
              commentId: command.commentId,
              authorId: command.authorId,
              body: command.body,
              pageId: command.pageId,
            },
          },
        ];
      }
      case "EditComment": {
        const comment = ownComment(onPage(state, command.pageId), command.commentId, command.actorId, "edit");
        if (comment.deleted) throw new AppError("conflict", "a deleted comment cannot be edited");
        if (comment.body === command.body) return [];
        return [
          {
            type: "CommentEdited",
            data: { threadId, commentId: command.commentId, body: command.body, pageId: command.pageId },
          },
        ];
      }
      case "DeleteComment": {
        const comment = ownComment(onPage(state, command.pageId), command.commentId, command.actorId, "delete");
        if (comment.deleted) return [];
        return [{ type: "CommentDeleted", data: { threadId, commentId: command.commentId } }];
      }
      case "SetThreadStatus": {
        const thread = onPage(state, command.pageId);
        if (thread.status === command.status) return [];
        return command.status === "resolved"
          ? [{ type: "ThreadResolved", data: { threadId, resolvedBy: command.actorId } }]
          : [{ type: "ThreadReopened", data: { threadId, reopenedBy: command.actorId } }];
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case "ThreadOpened":
        return { status: "open", pageId: event.data.pageId, comments: {} };
      case "CommentAdded":
        if (state.status === "absent") return state;
        return {
          ...state,
          comments: {
            ...state.comments,
            [event.data.commentId]: { authorId: event.data.authorId, body: event.data.body, deleted: false },
          },
        };
      case "CommentEdited":
        return withComment(state, event.data.commentId, (comment) => ({ ...comment, body: event.data.body }));
      case "CommentDeleted":
        return withComment(state, event.data.commentId, (comment) => ({ ...comment, body: "", deleted: true }));
      case "ThreadResolved":
        return state.status === "absent" ? state : { ...state, status: "resolved" };
      case "ThreadReopened":
        return state.status === "absent" ? state : { ...state, status: "open" };
    }
  },
};
