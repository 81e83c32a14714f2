// Read model of links between pages: one row per (source page, target page) while the source's markdown links
// to the target, with the position at which the link appeared. It serves GET /pages/{id}/backlinks.
import type { VisibleTo } from "../read-store/list-query.ts";

export interface PageLink {
  readonly sourceId: string;
  readonly targetId: string;
  /** Global position of the change that made the source link to the target (kept while the link stays). */
  readonly position: number;
}

export interface LinksView {
  /**
   * Links to `targetId` from pages the caller can see (`visibleTo`, part of the query: each source of visibility
   * is read through its own index, so links from pages the caller cannot see cost nothing), newest first,
   * strictly before `before` (a position) when given; at most `limit`.
   */
  linksTo(targetId: string, visibleTo: VisibleTo, before: number | null, limit: number): Promise<PageLink[]>;
}

export interface LinksWriter<Tx> {
  /**
   * The source now links to exactly `targetIds`: links it no longer has go, new ones are recorded at
   * `position`, and links it kept keep their position. Each link records the source's owner (a page never changes
   * workspace): `ownerId` when the page is created by this event, otherwise the pages model's record of it.
   */
  setLinks(
    tx: Tx,
    source: { readonly id: string; readonly ownerId: string | null },
    targetIds: readonly string[],
    position: number,
  ): Promise<void>;
  /** The source page is gone (deleted): none of its links count any more. */
  removeSource(tx: Tx, sourceId: string): Promise<void>;
  /** The page was purged: the links to it go too (a later change of a page still linking to it records it again). */
  removeTarget(tx: Tx, targetId: string): Promise<void>;
}
