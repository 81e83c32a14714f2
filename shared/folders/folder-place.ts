// Where an item below a folder sits once that folder was moved or renamed: pure, so every read-model adapter
// re-roots folders and pages below it the same way.
import type { FolderPlace } from "./folders.view.ts";

/**
 * The item's ancestors up to `folder`, then the folder's new ones; its path (a folder's own, or a page's folder
 * path) with everything down to `folder` replaced by the folder's new path.
 */
export function reRooted(item: { readonly ancestorIds: readonly string[]; readonly path: string }, folder: FolderPlace): { ancestorIds: string[]; path: string } {
  const index = item.ancestorIds.indexOf(folder.id);
  return {
    ancestorIds: [...item.ancestorIds.slice(0, index + 1), ...folder.ancestorIds],
    path: [folder.path, ...item.path.split("/").slice(item.ancestorIds.length - index)].join("/"),
  };
}
