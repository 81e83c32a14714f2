// A comment thread as the write side knows it: its stream's events folded into the record the read models will
// hold, with their times. What a comment write answers (202) while the read models have not caught up with it.
import { presentThreads, type ThreadResource } from "../../../shared/comments/thread.resource.ts";
import { threadStream } from "../../../shared/comments/thread.decider.ts";
import type { CommentRecord, ThreadRecord } from "../../../shared/comments/threads.view.ts";
import type { EventStore } from "../../../shared/event-store/event-store.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { parseRecorded, type StoredEvent } from "../../../shared/events.ts";
import { pageIdSchema, type ThreadId } from "../../../shared/kernel/ids.ts";
import { pageCommands } from "../../../shared/pages/page.commands.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

type Folded = Omit<ThreadRecord, "comments"> & { comments: CommentRecord[] };

function fold(thread: Folded | null, { event, metadata, position }: StoredEvent): Folded | null {
  const at = metadata.occurredAt;
  const touched = (changes: Partial<Folded>): Folded | null =>
    thread ? { ...thread, ...changes, updatedAt: at } : null;
  const comment = (commentId: string, change: (comment: CommentRecord) => CommentRecord): Folded | null =>
    thread
      ? {
          ...thread,
          updatedAt: at,
          comments: thread.comments.map((each) => (each.id === commentId ? change(each) : each)),
        }
      : null;
  switch (event.type) {
    case "ThreadOpened": {
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
      return thread ? { ...thread, updatedAt: at, comments: [...thread.comments, added] } : null;
    }
    case "CommentEdited":
      return comment(event.data.commentId, (each) => ({ ...each, body: event.data.body, updatedAt: at }));
    case "CommentDeleted":
      return comment(event.data.commentId, (each) => ({ ...each, body: "", updatedAt: at, deletedAt: at }));
    case "ThreadResolved":
      return touched({ status: "resolved", resolvedBy: event.data.resolvedBy, resolvedAt: at });
    case "ThreadReopened":
      return touched({ status: "open", resolvedBy: null, resolvedAt: null });
    default:
      return thread;
  }
}

export async function assembleThread(
  ports: { eventStore: EventStore; views: ReadModels },
  threadId: ThreadId,
): Promise<ThreadResource> {
  const { events } = await ports.eventStore.read(threadStream(threadId));
  const thread = events.map(parseRecorded).reduce<Folded | null>(fold, null);
  const page = thread ? await pageCommands.load(ports.eventStore, pageIdSchema.parse(thread.pageId)) : null;
  const markdown = page && page.status === "live" ? page.markdown : "";
  const [presented] = thread ? await presentThreads(ports.views.users, [thread], markdown) : [];
  if (!presented) throw new AppError("internal", "thread was not recorded");
  return presented;
}
