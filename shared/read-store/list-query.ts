// What every access-filtered list asks of a read model: who may see what, where to resume, how many.
export interface VisibleTo {
  readonly ownerIds: readonly string[];
  readonly pageIds: readonly string[];
  readonly folderIds: readonly string[];
}

export interface ListQuery {
  readonly visibleTo: VisibleTo;
  /** Resume after this position (exclusive); null starts at the newest. */
  readonly before: number | null;
  /** Rows to return; adapters return up to limit + 1 so the caller knows whether more follow. */
  readonly limit: number;
}
