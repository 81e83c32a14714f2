// Page links (the backlinks read model): the links of a page's markdown, found when its content is recorded,
// dropped when the page is deleted, and found again when it comes back from the trash. Moves and renames
// change no link: who may see a linking page is judged when backlinks are read.
import type { StoredEvent } from "../../../shared/events.ts";
import { linkedPageIds } from "../../../shared/links/page-links.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectLinks<Tx>(
  { event, position }: StoredEvent,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  switch (event.type) {
    case "PageCreated":
      return writers.links.setLinks(
        tx,
        { id: event.data.pageId, ownerId: event.data.ownerId },
        linkedPageIds(event.data.markdown, event.data.pageId),
        position,
      );
    case "PageContentReplaced":
    case "PageRestored":
    case "PageUndeleted":
      return writers.links.setLinks(
        tx,
        { id: event.data.pageId, ownerId: null },
        linkedPageIds(event.data.markdown, event.data.pageId),
        position,
      );
    case "PageDeleted":
      return writers.links.removeSource(tx, event.data.pageId);
    default:
      return;
  }
}
