// Where an item sits in the folder tree: placed directly in a folder, and re-rooted once a folder above it was
// moved or renamed. Pure, so every projection, read-model adapter and answer places items the same way.
import type { FolderPlace } from "./folders.view.ts";

/** Where an item directly in `parent` sits: below it and its ancestors, in its path; at the root without one. */
export function placedIn(parent: FolderPlace | null | undefined): { ancestorIds: string[]; folderPath: string } {
  return parent
    ? { ancestorIds: [parent.id, ...parent.ancestorIds], folderPath: parent.path }
    : { ancestorIds: [], folderPath: "" };
}

/** Where a folder named `name` directly in `parent` sits: its ancestors, and its own path. */
export function folderPlacedIn(
  parent: FolderPlace | null | undefined,
  name: string,
): { ancestorIds: string[]; path: string } {
  const { ancestorIds, folderPath } = placedIn(parent);
  return { ancestorIds, path: parent ? `${folderPath}/${name}` : name };
}

/**
 * The item's ancestors up to `folder`, then the folder's new ones; its path (a folder's own, or a page's folder
 * path) with everything down to `folder` replaced by the folder's new path.
 */
export function reRooted(
  item: { readonly ancestorIds: readonly string[]; readonly path: string },
  folder: FolderPlace,
): { ancestorIds: string[]; path: string } {
  const index = item.ancestorIds.indexOf(folder.id);
  return {
    ancestorIds: [...item.ancestorIds.slice(0, index + 1), ...folder.ancestorIds],
    path: [folder.path, ...item.path.split("/").slice(item.ancestorIds.length - index)].join("/"),
  };
}
