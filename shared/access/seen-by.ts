// Where a page or folder sits, as a caller may be told: only the folders they can view. A folder they cannot
// view is as missing as it is to GET /folders/{id}, so its id and name never appear in parentId or folderPath;
// what lies below it appears at the caller's root. Pure: computed from the record and the cached context.
import type { AccessContext } from "./access-context.ts";

/** The fields that say where an item sits: a page's `folderPath`, or a folder's own `path` (its name last). */
export interface Placed {
  readonly ownerId: string;
  readonly parentId: string | null;
  /** Folders above the item, nearest first; each names one segment of the path. */
  readonly ancestorIds: readonly string[];
  readonly folderPath?: string;
  readonly path?: string;
}

declare const seen: unique symbol;
/** A record shaped for one caller by seenBy: what resources and documents are built from. */
export type Seen<T> = T & { readonly [seen]: true };

/**
 * How many of the item's ancestors, nearest first, the caller can view. A folder is visible through its
 * owner's workspace (ownership or a role: then all are) or a grant on it or on a folder above it, so the
 * visible ancestors are the nearest ones up to the topmost granted folder: one walk, no lookup.
 */
export function visibleAncestorCount(context: AccessContext, item: Pick<Placed, "ownerId" | "ancestorIds">): number {
  if (item.ownerId === context.userId || context.workspaceRoles.has(item.ownerId)) return item.ancestorIds.length;
  for (let index = item.ancestorIds.length - 1; index >= 0; index--) {
    const id = item.ancestorIds[index];
    if (id !== undefined && context.folderGrants.has(id)) return index + 1;
  }
  return 0;
}

/** The path without its first `hidden` folder names (the path's segments run from the root down). */
const withoutTop = (path: string, hidden: number): string => path.split("/").slice(hidden).join("/");

/**
 * The item as the caller may see it: hidden ancestors dropped from ancestorIds and the path, and parentId null
 * when the folder it is in is hidden. Dropping them keeps its effective permission: a hidden folder holds no
 * grant of the caller's (or it would be visible).
 */
export function seenBy<T extends Placed>(context: AccessContext, item: T): Seen<T> {
  const shown = visibleAncestorCount(context, item);
  const hidden = item.ancestorIds.length - shown;
  // The brand is a compile-time mark only: every record a caller is shown has passed through here.
  if (hidden === 0) return item as Seen<T>;
  const shaped: T = {
    ...item,
    parentId: shown === 0 ? null : item.parentId,
    ancestorIds: item.ancestorIds.slice(0, shown),
    ...(item.folderPath === undefined ? {} : { folderPath: withoutTop(item.folderPath, hidden) }),
    ...(item.path === undefined ? {} : { path: withoutTop(item.path, hidden) }),
  };
  return shaped as Seen<T>;
}
