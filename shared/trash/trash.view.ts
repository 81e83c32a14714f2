// Read model of the trash: what was deleted, by whom and when, where it stood; kept until it is restored or
// purged after the retention period.

export type TrashType = "page" | "folder";

export interface TrashItem {
  readonly type: TrashType;
  readonly id: string;
  readonly ownerId: string;
  readonly title: string;
  /** The folder it was deleted from (null: the root); it may have gone since. */
  readonly parentId: string | null;
  readonly deletedAt: string;
  readonly deletedBy: string;
  /** The folder whose recursive deletion took this item along (it comes back with it); null: deleted itself. */
  readonly deletedWith: string | null;
  /** Global position of the deletion: the list's order and cursor. */
  readonly position: number;
  /**
   * The folders above `parentId` (nearest first, `parentId` itself included), kept as folders move: what finds
   * the item for a grantee of one of them. A candidate only: every read judges the item where it would return.
   */
  readonly ancestorIds: readonly string[];
}

/** Whose trash items a caller could edit: the workspaces they own or belong to, and their edit grants. */
export interface TrashSources {
  readonly ownerIds: readonly string[];
  /** Granted folders: items deleted from anywhere below them, and the folders themselves. */
  readonly folderIds: readonly string[];
  /** Granted pages: those pages themselves. */
  readonly pageIds: readonly string[];
}

export interface TrashView {
  get(type: TrashType, id: string): Promise<TrashItem | null>;
  /**
   * Items deleted themselves (not along with a folder) that some source names, newest first, before `before`:
   * each source is read newest first through its own index, at most `limit` rows each.
   */
  list(sources: TrashSources, before: number | null, limit: number): Promise<TrashItem[]>;
  /** What the recursive deletion of `folderId` took along. */
  deletedWith(folderId: string): Promise<TrashItem[]>;
  /** Items deleted before `deletedBefore` (an ISO instant), oldest first: those due for purging. */
  expired(deletedBefore: string, limit: number): Promise<TrashItem[]>;
}

export interface TrashWriter<Tx> {
  put(tx: Tx, item: TrashItem): Promise<void>;
  remove(tx: Tx, type: TrashType, id: string): Promise<void>;
  /** The folder moved: items deleted from below it take its new ancestors. */
  placeBelow(tx: Tx, folder: { readonly id: string; readonly ancestorIds: readonly string[] }): Promise<void>;
}

/** The ancestors of an item below `folder` once `folder` stands where it stands now. */
export function ancestorsBelow(
  itemAncestors: readonly string[],
  folder: { readonly id: string; readonly ancestorIds: readonly string[] },
): string[] {
  const at = itemAncestors.indexOf(folder.id);
  return at < 0 ? [...itemAncestors] : [...itemAncestors.slice(0, at + 1), ...folder.ancestorIds];
}
