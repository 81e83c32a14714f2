// Folder events into the folders read model, with ancestors and path computed once; a rename or a move
// carries the new path (and, for a move, the new ancestors) down to every folder and page below.
import type { StoredEvent } from "../../../shared/events.ts";
import type { FolderEvent } from "../../../shared/folders/folder.decider.ts";
import type { FolderTreeEvent } from "../../../shared/folders/folder-tree.decider.ts";
import { folderPlacedIn } from "../../../shared/folders/folder-place.ts";
import type { FolderRecord } from "../../../shared/folders/folders.view.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

async function placeOf<Tx>(
  writers: ProjectionWriters<Tx>,
  tx: Tx,
  parentId: string | null,
  name: string,
): Promise<Pick<FolderRecord, "ancestorIds" | "path">> {
  const parent = parentId ? await writers.folders.get(tx, parentId) : null;
  return folderPlacedIn(parent, name);
}

export async function projectFolder<Tx>(
  { event, metadata, position }: StoredEvent<FolderEvent | FolderTreeEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  const changed = { updatedAt: metadata.occurredAt, updatedPosition: position };
  if (event.type === "FolderCreated") {
    const { folderId, ownerId, parentId, name, icon } = event.data;
    const place = await placeOf(writers, tx, parentId, name);
    return writers.folders.put(tx, {
      id: folderId,
      ownerId,
      parentId,
      name,
      icon,
      ...place,
      createdAt: metadata.occurredAt,
      ...changed,
    });
  }
  if (event.type === "FolderUndeleted") {
    // Rebuilt as on creation, where it now returns to (what was deleted with it follows, each in its own event).
    const { folderId, ownerId, parentId, name, icon, createdAt } = event.data;
    const place = await placeOf(writers, tx, parentId, name);
    return writers.folders.put(tx, { id: folderId, ownerId, parentId, name, icon, ...place, createdAt, ...changed });
  }
  // Its row left the folders read model when it was deleted; the purge projection takes the rest out.
  if (event.type === "FolderPurged") return;
  const folder = await writers.folders.get(tx, event.data.folderId);
  if (!folder) return;
  switch (event.type) {
    case "FolderIconChanged":
      return writers.folders.put(tx, { ...folder, icon: event.data.icon, ...changed });
    case "FolderDeleted":
      return writers.folders.remove(tx, folder.id);
    case "FolderRenamed": {
      const renamed = {
        ...folder,
        name: event.data.name,
        ...(await placeOf(writers, tx, folder.parentId, event.data.name)),
        ...changed,
      };
      await writers.folders.place(tx, renamed, null);
      return writers.pages.placeBelow(tx, renamed, null);
    }
    case "FolderMoved": {
      const moved = {
        ...folder,
        parentId: event.data.parentId,
        ...(await placeOf(writers, tx, event.data.parentId, folder.name)),
        ...changed,
      };
      await writers.folders.place(tx, moved, changed);
      await writers.trash.placeBelow(tx, moved);
      return writers.pages.placeBelow(tx, moved, changed);
    }
  }
}
