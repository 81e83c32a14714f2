// A folder's record as the read models hold it, folded from its events. Where it sits in the tree (ancestorIds,
// path) depends on its parent's record: a creation, a return from the trash or a move leaves it at the root of
// its path until the caller places it in its parent (`folderPlacedIn`); a rename keeps its place and renames the
// last step of its path.
import { recordFold } from "../read-store/record-fold.ts";
import { folderPlacedIn } from "./folder-place.ts";
import type { FolderRecord } from "./folders.view.ts";

export const folderRecord = recordFold<FolderRecord>()({
  canHandle: [
    "FolderCreated",
    "FolderUndeleted",
    "FolderRenamed",
    "FolderIconChanged",
    "FolderMoved",
    "FolderDeleted",
    "FolderPurged",
  ],
  evolve(folder, { event, metadata, position }) {
    const changed = { updatedAt: metadata.occurredAt, updatedPosition: position };
    if (event.type === "FolderCreated" || event.type === "FolderUndeleted") {
      const { folderId, ownerId, parentId, name, icon } = event.data;
      const createdAt = event.type === "FolderUndeleted" ? event.data.createdAt : metadata.occurredAt;
      return { id: folderId, ownerId, parentId, name, icon, ...folderPlacedIn(null, name), createdAt, ...changed };
    }
    if (!folder) return null;
    switch (event.type) {
      case "FolderRenamed": {
        const { name } = event.data;
        return {
          ...folder,
          name,
          path: folder.path.slice(0, folder.path.length - folder.name.length) + name,
          ...changed,
        };
      }
      case "FolderIconChanged":
        return { ...folder, icon: event.data.icon, ...changed };
      case "FolderMoved":
        return { ...folder, parentId: event.data.parentId, ...folderPlacedIn(null, folder.name), ...changed };
      case "FolderDeleted":
      case "FolderPurged":
        return null;
    }
  },
});
