// The folders already at the import's target by their path below it, so that an import reuses a folder an earlier
// import (or the user) made at the same path instead of making a second one: the owner's folders for an import
// into the root, the folders below the target folder otherwise. Paths are keyed in lower case: an import's
// directories that differ only in case are one folder, and so is an existing folder spelled otherwise.
import type { FoldersView } from "../../../shared/folders/folders.view.ts";
import { folderIdSchema, type FolderId } from "../../../shared/kernel/ids.ts";
import type { ListKey } from "../../../shared/read-store/list-query.ts";
import type { ImportTarget } from "./import-target.ts";

const PAGE = 1_000;

/** Lower-cased path below the target to folder id; of two folders whose paths differ only in case, the one listed first. */
export async function foldersAtTarget(folders: FoldersView, target: ImportTarget): Promise<Map<string, FolderId>> {
  const byPath = new Map<string, FolderId>();
  if (target.folder !== null) {
    const prefix = `${target.folder.path}/`;
    for (const folder of (await folders.below(target.folder.id)).folders) {
      const key = folder.path.slice(prefix.length).toLowerCase();
      if (folder.path.startsWith(prefix) && !byPath.has(key)) byPath.set(key, folderIdSchema.parse(folder.id));
    }
    return byPath;
  }
  const { ownerId } = target;
  const visibleTo = { ownerIds: [ownerId], pageIds: [], folderIds: [] };
  for (let before: ListKey | null = null; ;) {
    const rows = await folders.list({ visibleTo, before, limit: PAGE });
    for (const folder of rows.slice(0, PAGE)) {
      const key = folder.path.toLowerCase();
      if (folder.ownerId === ownerId && !byPath.has(key)) byPath.set(key, folderIdSchema.parse(folder.id));
    }
    const last = rows.at(Math.min(rows.length, PAGE) - 1);
    if (rows.length <= PAGE || !last) return byPath;
    before = { position: last.updatedPosition, id: last.id };
  }
}
