// The trash: a page deleted (with the owner, folder and title its deletion records) enters it; coming back or
// being purged takes it out. Deletions recorded before the trash existed carry no title and stay out of it.
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectTrash<Tx>({ event, metadata, position }: StoredEvent, writers: ProjectionWriters<Tx>, tx: Tx): Promise<void> {
  switch (event.type) {
    case "PageDeleted": {
      const { pageId, ownerId, parentId, title } = event.data;
      if (ownerId === undefined || parentId === undefined || title === undefined) return;
      return writers.trash.put(tx, { type: "page", id: pageId, ownerId, title, parentId, deletedAt: metadata.occurredAt, deletedBy: metadata.actorId, position });
    }
    case "PageUndeleted":
    case "PagePurged":
      return writers.trash.remove(tx, "page", event.data.pageId);
    default:
      return;
  }
}
