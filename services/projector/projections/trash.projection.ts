// The trash: a page or folder deleted (with the owner, folder and title its deletion records) enters it; coming
// back or being purged takes it out. A deletion recorded before the trash existed carries none of these: the
// item's row, which the same event removes from the listing after this projection, tells them instead.
import type { StoredEvent } from "../../../shared/events.ts";
import { placedIn } from "../../../shared/folders/folder-place.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

/** The folders above an item deleted from `parentId`, as the folders read model has them at its deletion. */
async function ancestorsFrom<Tx>(writers: ProjectionWriters<Tx>, tx: Tx, parentId: string | null): Promise<string[]> {
  const parent = parentId === null ? null : await writers.folders.get(tx, parentId);
  return placedIn(parent).ancestorIds;
}

export async function projectTrash<Tx>(
  { event, metadata, position }: StoredEvent,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  switch (event.type) {
    case "PageDeleted": {
      const { pageId, deletedWith } = event.data;
      const { ownerId, parentId, title } =
        event.data.ownerId === undefined ? ((await writers.pages.get(tx, pageId)) ?? {}) : event.data;
      if (ownerId === undefined || parentId === undefined || title === undefined) return;
      const deleted = {
        deletedAt: metadata.occurredAt,
        deletedBy: metadata.actorId,
        deletedWith: deletedWith ?? null,
        position,
        ancestorIds: await ancestorsFrom(writers, tx, parentId),
      };
      return writers.trash.put(tx, { type: "page", id: pageId, ownerId, title, parentId, ...deleted });
    }
    case "FolderDeleted": {
      const { folderId, deletedWith } = event.data;
      const { ownerId, parentId, name } =
        event.data.ownerId === undefined ? ((await writers.folders.get(tx, folderId)) ?? {}) : event.data;
      if (ownerId === undefined || parentId === undefined || name === undefined) return;
      const deleted = {
        deletedAt: metadata.occurredAt,
        deletedBy: metadata.actorId,
        deletedWith: deletedWith ?? null,
        position,
        ancestorIds: await ancestorsFrom(writers, tx, parentId),
      };
      return writers.trash.put(tx, { type: "folder", id: folderId, ownerId, title: name, parentId, ...deleted });
    }
    case "PageUndeleted":
    case "PagePurged":
      return writers.trash.remove(tx, "page", event.data.pageId);
    case "FolderUndeleted":
    case "FolderPurged":
      return writers.trash.remove(tx, "folder", event.data.folderId);
    default:
      return;
  }
}
