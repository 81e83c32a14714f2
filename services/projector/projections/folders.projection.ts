// Folder events into the folders read model: the folder as `folderRecord` folds it, placed below its parent's
// record; a rename or a move carries the new path (and, for a move, the new ancestors) down to every folder and
// page below.
import type { StoredEvent } from "../../../shared/events.ts";
import type { FolderEvent } from "../../../shared/folders/folder.decider.ts";
import type { FolderTreeEvent } from "../../../shared/folders/folder-tree.decider.ts";
import { folderPlacedIn } from "../../../shared/folders/folder-place.ts";
import { folderRecord } from "../../../shared/folders/folder.record.ts";
import type { FolderRecord } from "../../../shared/folders/folders.view.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

async function placed<Tx>(writers: ProjectionWriters<Tx>, tx: Tx, folder: FolderRecord): Promise<FolderRecord> {
  const parent = folder.parentId ? await writers.folders.get(tx, folder.parentId) : null;
  return { ...folder, ...folderPlacedIn(parent, folder.name) };
}

export async function projectFolder<Tx>(
  stored: StoredEvent<FolderEvent | FolderTreeEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  const { event } = stored;
  // Its row left the folders read model when it was deleted; the purge projection takes the rest out.
  if (event.type === "FolderPurged") return;
  const made = event.type === "FolderCreated" || event.type === "FolderUndeleted";
  const before = made ? null : await writers.folders.get(tx, event.data.folderId);
  if (!made && !before) return;
  const folder = folderRecord.evolve(before, stored);
  if (!folder) return writers.folders.remove(tx, event.data.folderId);
  switch (event.type) {
    // Back from the trash: rebuilt as on creation, where it now returns to (what was deleted with it follows,
    // each in its own event).
    case "FolderCreated":
    case "FolderUndeleted":
      return writers.folders.put(tx, await placed(writers, tx, folder));
    case "FolderIconChanged":
      return writers.folders.put(tx, folder);
    case "FolderRenamed":
      await writers.folders.place(tx, folder, null);
      return writers.pages.placeBelow(tx, folder, null);
    case "FolderMoved": {
      const moved = await placed(writers, tx, folder);
      const changed = { updatedAt: moved.updatedAt, updatedPosition: moved.updatedPosition };
      await writers.folders.place(tx, moved, changed);
      await writers.trash.placeBelow(tx, moved);
      return writers.pages.placeBelow(tx, moved, changed);
    }
    case "FolderDeleted":
      return;
  }
}
