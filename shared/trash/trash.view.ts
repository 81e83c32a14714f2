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
}

export interface TrashView {
  get(type: TrashType, id: string): Promise<TrashItem | null>;
  /** Items deleted themselves (not along with a folder) of these owners' workspaces, newest first, before `before`. */
  list(ownerIds: readonly string[], before: number | null, limit: number): Promise<TrashItem[]>;
  /** What the recursive deletion of `folderId` took along. */
  deletedWith(folderId: string): Promise<TrashItem[]>;
  /** Items deleted before `deletedBefore` (an ISO instant), oldest first: those due for purging. */
  expired(deletedBefore: string, limit: number): Promise<TrashItem[]>;
}

export interface TrashWriter<Tx> {
  put(tx: Tx, item: TrashItem): Promise<void>;
  remove(tx: Tx, type: TrashType, id: string): Promise<void>;
}
