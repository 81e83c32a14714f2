// The caller's own folders by path, so that an import reuses a folder an earlier import (or the caller) made at
// the same path instead of making a second one. Paths are keyed in lower case: an import's directories that
// differ only in case are one folder, and so is an existing folder spelled otherwise.
import type { FoldersView } from "../../../shared/folders/folders.view.ts";
import { folderIdSchema, type FolderId } from "../../../shared/kernel/ids.ts";
import type { ListKey } from "../../../shared/read-store/list-query.ts";

const PAGE = 1_000;

/** Lower-cased path to folder id; of two folders whose paths differ only in case, the one listed first. */
export async function ownFoldersByPath(folders: FoldersView, ownerId: string): Promise<Map<string, FolderId>> {
  const byPath = new Map<string, FolderId>();
  const visibleTo = { ownerIds: [ownerId], pageIds: [], folderIds: [] };
  for (let before: ListKey | null = null; ; ) {
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
