// Full-text search for a caller (GET /search and the MCP server's search): pages they can see, title hits
// first, with a snippet and the filters of the route.
import { z } from "zod";
import type { Principal } from "../auth/principal.ts";
import { presentVisible, visibilityFilter } from "../access/effective-permission.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { folderVisibleTo } from "../folders/folder-visible-to.ts";
import {
  decodeSearchCursor,
  encodeSearchCursor,
  parseSearch,
  renderSnippet,
  SEARCH_MAX_OFFSET,
  type SearchFilters,
} from "./page-search.ts";
import { resolvedPageResource, toPageResource } from "./page.resource.ts";
import { runAsCaller, userCaller } from "../workers/pool-caller.ts";

export const searchResult = resolvedPageResource
  .extend({ snippet: z.string().meta({ description: "HTML-escaped, matched words marked with <mark>" }) })
  .meta({ id: "SearchHit", description: "A page that matches, with a marked snippet" });
export type SearchResult = z.infer<typeof searchResult>;

export interface SearchPagesQuery {
  readonly q: string;
  readonly cursor?: string | undefined;
  readonly limit: number;
  readonly folderId?: string | undefined;
  readonly ownerId?: string | undefined;
  /** ISO-8601 in UTC with milliseconds, as updatedAt is stored. */
  readonly updatedAfter?: string | undefined;
  readonly updatedBefore?: string | undefined;
  readonly in?: "title" | undefined;
}

export async function searchPages(
  views: ReadModels,
  principal: Principal,
  query: SearchPagesQuery,
): Promise<{ data: SearchResult[]; nextCursor: string | null }> {
  const { q, cursor, limit, folderId, ownerId, updatedAfter, updatedBefore } = query;
  const terms = parseSearch(q);
  // A fixed key order: the cursor is tied to these filters by their JSON.
  const filters: SearchFilters = {
    ...(folderId !== undefined ? { folderId } : {}),
    ...(ownerId !== undefined ? { ownerId } : {}),
    ...(updatedAfter !== undefined ? { updatedAfter } : {}),
    ...(updatedBefore !== undefined ? { updatedBefore } : {}),
    ...(query.in === "title" ? { titleOnly: true } : {}),
  };
  const offset = decodeSearchCursor(cursor, terms, filters);
  const context = await views.access.contextFor(principal.user.id);
  // A folder the caller cannot view holds nothing for them, as an unknown one: neither is searched.
  if (folderId !== undefined && !(await folderVisibleTo(views, context, folderId)))
    return { data: [], nextCursor: null };
  // Ranked in the worker pool where the store ranks there (SQLite), as this user's task.
  const hits = await runAsCaller(userCaller(principal.user.id), () =>
    views.pages.search({ terms, visibleTo: visibilityFilter(context), filters, offset, limit }),
  );
  const kept = hits.slice(0, limit);
  const next = offset + kept.length;
  const nextCursor = hits.length > limit && next <= SEARCH_MAX_OFFSET ? encodeSearchCursor(next, terms, filters) : null;
  const data = presentVisible(
    context,
    "page",
    kept.map((hit) => ({ ...hit.page, hit })),
    (item, permission) => ({
      ...toPageResource(item, permission),
      folderPath: item.folderPath,
      snippet: renderSnippet(item.hit.snippet),
    }),
  );
  return { data, nextCursor };
}
