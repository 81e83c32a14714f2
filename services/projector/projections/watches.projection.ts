// Watches: explicit watches and unwatches as asked; automatic ones for a page's authors (who create it, rename
// it or change its content) and commenters (who open a thread or reply on it), unless their settings turn that
// off or they stopped watching the page before. A purged page's or folder's rows go with it.
import type { DomainEvent, StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";
import type { NotificationSettingsEvent } from "../../../shared/watching/notification-settings.decider.ts";
import type { WatchEvent } from "../../../shared/watching/watch.decider.ts";

export async function projectWatch<Tx>(
  { event, position }: StoredEvent<WatchEvent | NotificationSettingsEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  switch (event.type) {
    case "PageWatched":
    case "PageUnwatched":
      return writers.watches.set(tx, {
        kind: "page",
        entityId: event.data.pageId,
        userId: event.data.userId,
        state: event.type === "PageWatched" ? "watching" : "unwatched",
        auto: false,
        position,
      });
    case "FolderWatched":
    case "FolderUnwatched":
      return writers.watches.set(tx, {
        kind: "folder",
        entityId: event.data.folderId,
        userId: event.data.userId,
        state: event.type === "FolderWatched" ? "watching" : "unwatched",
        auto: false,
        position,
      });
    case "NotificationSettingsChanged": {
      const { userId, autoWatch, delivery } = event.data;
      return writers.notificationSettings.put(tx, userId, { autoWatch, delivery });
    }
  }
}

/** The page an event makes its actor an author or commenter of, or null. */
async function authoredPage<Tx>(event: DomainEvent, writers: ProjectionWriters<Tx>, tx: Tx): Promise<string | null> {
  switch (event.type) {
    case "PageCreated":
    case "PageRenamed":
    case "PageContentReplaced":
    case "ThreadOpened":
      return event.data.pageId;
    case "CommentAdded": {
      if (event.data.pageId !== undefined) return event.data.pageId;
      const access = await writers.history.accessOf(tx, event.data.threadId);
      return access?.kind === "page" ? access.id : null;
    }
    default:
      return null;
  }
}

/** Runs for every event, beside its own projection: automatic watches, and a purge's rows. */
export async function projectAutomaticWatches<Tx>(
  { event, position, metadata }: StoredEvent,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  if (event.type === "PagePurged") return writers.watches.removeEntity(tx, "page", event.data.pageId);
  if (event.type === "FolderPurged") return writers.watches.removeEntity(tx, "folder", event.data.folderId);
  if (event.type === "UserErased") return writers.notificationSettings.remove(tx, event.data.userId);
  const pageId = await authoredPage(event, writers, tx);
  if (pageId === null) return;
  const { autoWatch } = await writers.notificationSettings.get(tx, metadata.actorId);
  if (!autoWatch) return;
  return writers.watches.watchAutomatically(tx, { kind: "page", entityId: pageId, userId: metadata.actorId, position });
}
