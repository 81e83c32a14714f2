// Read model of who watches which page or folder: one row per (entity, user), either watching or an explicit
// "unwatched" that keeps an automatic watch from coming back. Laid out for a notifier's fan-out: the watchers
// of one entity are read in user-id order, a bounded batch at a time, from an index on (entity, state, user).
export type WatchedKind = "page" | "folder";
export type WatchState = "watching" | "unwatched";

export interface WatchRecord {
  readonly kind: WatchedKind;
  readonly entityId: string;
  readonly userId: string;
  readonly state: WatchState;
  /** Watching because they wrote or commented (true) or because they asked to (false). */
  readonly auto: boolean;
  readonly position: number;
}

export interface WatchesView {
  /** The user's row on the entity: watching, explicitly unwatched, or null (never either). */
  stateOf(kind: WatchedKind, entityId: string, userId: string): Promise<WatchState | null>;
  /** Of `folderIds`, those the user watches (a folder's watch covers its subtree). */
  watchedFolders(userId: string, folderIds: readonly string[]): Promise<string[]>;
  /**
   * One batch of the users watching the entity (not those below a watched folder: ask for each ancestor),
   * in user-id order after `afterUserId`, at most `limit`.
   */
  watchersOf(kind: WatchedKind, entityId: string, afterUserId: string | null, limit: number): Promise<string[]>;
}

export interface WatchesWriter<Tx> {
  /** An explicit watch or unwatch: replaces whatever row there was. */
  set(tx: Tx, record: WatchRecord): Promise<void>;
  /** An automatic watch (an author or a commenter): only where the user has no row for the entity yet. */
  watchAutomatically(tx: Tx, record: Omit<WatchRecord, "state" | "auto">): Promise<void>;
  /** One batch of the entity's watchers as the batch sees them: as WatchesView.watchersOf, for the fan-out. */
  watchersOf(tx: Tx, kind: WatchedKind, entityId: string, afterUserId: string | null, limit: number): Promise<string[]>;
  /** The user's row on the entity as the batch sees it (a page stopped being watched stays so below a watched folder). */
  stateOf(tx: Tx, kind: WatchedKind, entityId: string, userId: string): Promise<WatchState | null>;
  /** The entity was purged: its rows go. */
  removeEntity(tx: Tx, kind: WatchedKind, entityId: string): Promise<void>;
}
