// Copies of the read models kept apart from the live ones: the audit stores `npm run replay -- --until` writes,
// each the workspace as it was at an instant, so each may hold what was erased since. An erasure deletes the
// copies that mention what it erases (an account's id or address, a purged item's id).

export interface ReadModelCopies {
  /** Deletes every copy whose bytes hold one of `needles`, compared case-insensitively; answers how many. */
  eraseMentioning(needles: readonly string[]): Promise<number>;
}
