// Mentions: who a page's markdown and each comment's body mention, found when the text is recorded (one linear
// scan), dropped with the comment or the page. Recorded whoever they name: whether a mentioned user may view the
// page is judged when they would be notified, so a mention grants nothing.
import type { StoredEvent } from "../../../shared/events.ts";
import { mentionedUserIds } from "../../../shared/mentions/mentions.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectMentions<Tx>(
  { event, position }: StoredEvent,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  switch (event.type) {
    case "PageCreated":
    case "PageContentReplaced":
    case "PageRestored":
    case "PageUndeleted": {
      const { pageId, markdown } = event.data;
      return writers.mentions.setMentions(
        tx,
        { kind: "page", id: pageId },
        pageId,
        mentionedUserIds(markdown),
        position,
      );
    }
    case "PageDeleted":
    case "PagePurged":
      return writers.mentions.removeSource(tx, { kind: "page", id: event.data.pageId });
    case "CommentAdded":
    case "CommentEdited": {
      const { threadId, commentId, body } = event.data;
      const pageId = event.data.pageId ?? (await writers.history.accessOf(tx, threadId))?.id;
      if (pageId === undefined) return;
      return writers.mentions.setMentions(
        tx,
        { kind: "comment", id: commentId },
        pageId,
        mentionedUserIds(body),
        position,
      );
    }
    case "CommentDeleted":
      return writers.mentions.removeSource(tx, { kind: "comment", id: event.data.commentId });
    default:
      return;
  }
}
