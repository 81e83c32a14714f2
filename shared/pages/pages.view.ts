// Read models of pages: the listing row (page-record.ts; kept with its titleKey) and the content.
import type { Changed, FolderPlace } from "../folders/folders.view.ts";
import type { ListQuery, VisibleTo } from "../read-store/list-query.ts";
import type { SearchHit, SearchQuery } from "./page-search.ts";
import { withoutZeroWidth } from "../kernel/name-rules.ts";
import type { PageRecord } from "./page-record.ts";

export interface PageContent {
  readonly page: PageRecord;
  readonly markdown: string;
}

export interface PageListQuery extends ListQuery {
  /** Only pages directly in this folder; null: every page visible, wherever it is. */
  readonly parentId: string | null;
  /**
   * The caller whose grants `visibleTo.pageIds` and `folderIds` are (theirs and their groups'). An adapter that
   * keeps a listing per user (docs/contributing/page-listing.md) reads it instead of one source per grant.
   */
  readonly listedFor?: string | undefined;
}

export interface PagesView {
  /** A page that exists and is not deleted. */
  get(id: string): Promise<PageRecord | null>;
  getContent(id: string): Promise<PageContent | null>;
  list(query: PageListQuery): Promise<PageRecord[]>;
  /**
   * Live pages the caller can see whose title, without zero-width characters, trimmed and lower-cased, equals titleKey; newest first. The
   * visibility filter is part of the query, so pages of other workspaces can neither crowd out nor hide these.
   */
  findByTitleKey(titleKey: string, visibleTo: VisibleTo, limit: number): Promise<PageRecord[]>;
  /**
   * Full-text search over titles and markdown of live pages the caller can see (the filter is part of the
   * query: no invisible page is ranked, counted or quoted). Hits whose title matches every term come first,
   * then by relevance; case and diacritics are folded. Returns up to limit + 1 hits from `offset`.
   */
  search(query: SearchQuery): Promise<SearchHit[]>;
}

export interface PagesWriter<Tx> {
  /** A live page's listing record as the batch sees it (with the batch's own changes), or null. */
  get(tx: Tx, id: string): Promise<PageRecord | null>;
  /** The owner of a page until it is purged, live or in the trash, as the batch sees it; null once purged or never made. */
  ownerOf(tx: Tx, id: string): Promise<string | null>;
  /**
   * Stores the page's record as it now is (`pageRecord`'s fold, placed in its folder): a page not stored, or in
   * the trash, is made live with `markdown` as its content ("" without one); a live one takes the record's
   * fields, and `markdown` as its content only when given (pass it when the event carries it, so a rename does
   * not rewrite the content). The adapter decides which tables, listings and search entries the fields that
   * changed touch (a new place re-lists the page; a new title or content re-indexes it), never what they become.
   */
  put(tx: Tx, page: PageRecord, markdown?: string): Promise<void>;
  remove(tx: Tx, id: string): Promise<void>;
  /** The page was purged: nothing of it stays (remove() leaves its listing row behind, marked deleted). */
  purge(tx: Tx, id: string): Promise<void>;
  /**
   * The folder `folder.id` was renamed or moved: every page below it takes its new ancestors and path; with
   * `changed` (a move) they count as changed at that position.
   */
  placeBelow(tx: Tx, folder: FolderPlace, changed: Changed | null): Promise<void>;
}

/** Titles that read the same compare the same: zero-width characters are left out of the key. */
export const titleKey = (title: string): string => withoutZeroWidth(title).trim().toLowerCase();
