// Read model of links between pages: one row per (source page, target page) while the source's markdown links
// to the target, with the position at which the link appeared. It serves GET /pages/{id}/backlinks.

export interface PageLink {
  readonly sourceId: string;
  readonly targetId: string;
  /** Global position of the change that made the source link to the target (kept while the link stays). */
  readonly position: number;
}

export interface LinksView {
  /** Links to `targetId`, newest first, strictly before `before` (a position) when given; at most `limit`. */
  linksTo(targetId: string, before: number | null, limit: number): Promise<PageLink[]>;
}

export interface LinksWriter<Tx> {
  /**
   * The source now links to exactly `targetIds`: links it no longer has go, new ones are recorded at
   * `position`, and links it kept keep their position.
   */
  setLinks(tx: Tx, sourceId: string, targetIds: readonly string[], position: number): Promise<void>;
  /** The source page is gone (deleted): none of its links count any more. */
  removeSource(tx: Tx, sourceId: string): Promise<void>;
  /** The page was purged: the links to it go too (a later change of a page still linking to it records it again). */
  removeTarget(tx: Tx, targetId: string): Promise<void>;
}
