// Read model of templates: one row per page marked as a template, with the position it was marked at (the list's
// order, newest first). Visibility is the page's own, tested inside the query against the page's listing row.
import type { ListQuery } from "../read-store/list-query.ts";

export interface TemplateRow {
  readonly pageId: string;
  readonly ownerId: string;
  /** Where in the global log the page became a template: the list's key with the page id. */
  readonly position: number;
}

export interface TemplatesView {
  /** Live templates the caller can view, newest marked first, up to limit + 1 from `before`. */
  list(query: ListQuery): Promise<TemplateRow[]>;
  isTemplate(pageId: string): Promise<boolean>;
}

export interface TemplatesWriter<Tx> {
  put(tx: Tx, row: TemplateRow): Promise<void>;
  /** No longer a template (unmarked or purged). */
  remove(tx: Tx, pageId: string): Promise<void>;
}
