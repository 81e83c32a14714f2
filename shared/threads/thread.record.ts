// A comment thread's record as the read models hold it, folded from its stream's events with their times: every
// comment change also moves its thread's updatedAt.
import { recordFold } from "../read-store/record-fold.ts";
import type { CommentRecord, ThreadRecord } from "./threads.view.ts";

/**
 * The thread after an event. A record may carry only some of its comments (the projector loads the one an event
 * names): a change to a comment it does not carry changes only the thread.
 */
export const threadRecord = recordFold<ThreadRecord>()({
  canHandle: ["ThreadOpened", "CommentAdded", "CommentEdited", "CommentDeleted", "ThreadResolved", "ThreadReopened"],
  evolve(thread, { event, metadata, position }) {
    const at = metadata.occurredAt;
    if (event.type === "ThreadOpened") {
      const { threadId, pageId, anchor, createdBy } = event.data;
      return {
        id: threadId,
        pageId,
        anchor,
        status: "open",
        createdBy,
        createdAt: at,
        updatedAt: at,
        resolvedBy: null,
        resolvedAt: null,
        createdPosition: position,
        comments: [],
      };
    }
    if (!thread) return null;
    const comment = (commentId: string, change: (comment: CommentRecord) => CommentRecord): ThreadRecord => ({
      ...thread,
      updatedAt: at,
      comments: thread.comments.map((each) => (each.id === commentId ? change(each) : each)),
    });
    switch (event.type) {
      case "CommentAdded": {
        const { commentId, threadId, authorId, body } = event.data;
        const added: CommentRecord = {
          id: commentId,
          threadId,
          authorId,
          body,
          createdAt: at,
          updatedAt: at,
          deletedAt: null,
          createdPosition: position,
        };
        return {
          ...thread,
          updatedAt: at,
          comments: [...thread.comments.filter((each) => each.id !== commentId), added],
        };
      }
      case "CommentEdited":
        return comment(event.data.commentId, (each) => ({ ...each, body: event.data.body, updatedAt: at }));
      case "CommentDeleted":
        return comment(event.data.commentId, (each) => ({ ...each, body: "", updatedAt: at, deletedAt: at }));
      case "ThreadResolved":
        return { ...thread, status: "resolved", resolvedBy: event.data.resolvedBy, resolvedAt: at, updatedAt: at };
      case "ThreadReopened":
        return { ...thread, status: "open", resolvedBy: null, resolvedAt: null, updatedAt: at };
    }
  },
});
