// Thread events into the comment threads read model; every time shown comes from the event's occurredAt.
import type { ThreadEvent } from "../../../shared/comments/thread.decider.ts";
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectThread<Tx>(
  { event, metadata, position }: StoredEvent<ThreadEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  const at = metadata.occurredAt;
  switch (event.type) {
    case "ThreadOpened": {
      const { threadId, pageId, anchor, createdBy } = event.data;
      return writers.threads.open(tx, {
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
      });
    }
    case "CommentAdded": {
      const { threadId, commentId, authorId, body } = event.data;
      return writers.threads.addComment(tx, {
        id: commentId,
        threadId,
        authorId,
        body,
        createdAt: at,
        updatedAt: at,
        deletedAt: null,
        createdPosition: position,
      });
    }
    case "CommentEdited":
      return writers.threads.editComment(tx, event.data.commentId, event.data.body, at);
    case "CommentDeleted":
      return writers.threads.deleteComment(tx, event.data.commentId, at);
    case "ThreadResolved":
      return writers.threads.setStatus(tx, event.data.threadId, {
        status: "resolved",
        resolvedBy: event.data.resolvedBy,
        resolvedAt: at,
        updatedAt: at,
      });
    case "ThreadReopened":
      return writers.threads.setStatus(tx, event.data.threadId, {
        status: "open",
        resolvedBy: null,
        resolvedAt: null,
        updatedAt: at,
      });
  }
}
