// A purge takes the item out of every read model: after PagePurged nothing keyed by the page's id is left (its
// listing row, content, search row, links from and to it, comment threads and comments, history entries and
// those of its threads, grants, invitations, image and attachment records), and after FolderPurged nothing of the folder (its
// row left when it was deleted; its history, grants and invitations go now). A replay projects the purge the
// same way, so a rebuilt read model holds no more of it than the live one. The event log keeps every event.
import type { StoredEvent } from "../../../shared/events.ts";
import type { HistoryFolds } from "../../../shared/history/history-folds.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectPurge<Tx>(
  { event, position }: StoredEvent,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
  folds: HistoryFolds<Tx>,
): Promise<void> {
  switch (event.type) {
    case "PagePurged": {
      const { pageId } = event.data;
      // The threads go after their history: applied again after a crash (MongoDB without a transaction), the
      // batch still finds the threads whose entries are to go.
      const forgotten = [pageId, ...(await writers.threads.threadIdsOf(tx, pageId))];
      folds.forget(forgotten);
      await writers.history.forget(tx, forgotten);
      await writers.threads.removePage(tx, pageId);
      await writers.pages.purge(tx, pageId);
      await writers.links.removeSource(tx, pageId);
      await writers.links.removeTarget(tx, pageId);
      await writers.access.removeEntity(tx, "page", pageId, position);
      await writers.invitations.removeTarget(tx, "page", pageId);
      await writers.attachments.removePage(tx, pageId);
      return writers.images.removePage(tx, pageId);
    }
    case "FolderPurged": {
      const { folderId } = event.data;
      folds.forget([folderId]);
      await writers.history.forget(tx, [folderId]);
      await writers.folders.remove(tx, folderId);
      await writers.access.removeEntity(tx, "folder", folderId, position);
      return writers.invitations.removeTarget(tx, "folder", folderId);
    }
    default:
      return;
  }
}
