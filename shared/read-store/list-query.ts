// What every access-filtered list asks of a read model: who may see what, where to resume, how many.
export interface VisibleTo {
  readonly ownerIds: readonly string[];
  readonly pageIds: readonly string[];
  readonly folderIds: readonly string[];
}

/**
 * A place in a list ordered newest first by (position, id). Positions alone are not unique: a folder move
 * gives every page below it the move's position, so the id breaks ties and the order is total.
 */
export interface ListKey {
  readonly position: number;
  readonly id: string;
}

/** Before every item: no position reaches it, and "" sorts below every id. */
export const LIST_START: ListKey = { position: Number.MAX_SAFE_INTEGER, id: "" };

/** Negative when a comes after b in a newest-first list (a is newer), positive when it comes before. */
export function compareNewestFirst(a: ListKey, b: ListKey): number {
  if (a.position !== b.position) return b.position - a.position;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export interface ListQuery {
  readonly visibleTo: VisibleTo;
  /** Resume after this key (exclusive); null starts at the newest. */
  readonly before: ListKey | null;
  /** Rows to return; adapters return up to limit + 1 so the caller knows whether more follow. */
  readonly limit: number;
}
