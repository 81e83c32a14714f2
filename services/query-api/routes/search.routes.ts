// GET /search: full-text search over the titles and markdown of the pages the caller can see.
import { z } from "zod";
import { presentVisible, visibilityFilter } from "../../../shared/access/effective-permission.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { folderIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import { decodeSearchCursor, encodeSearchCursor, parseSearch, renderSnippet, SEARCH_MAX_OFFSET, type SearchFilters } from "../../../shared/pages/page-search.ts";
import { resolvedPageResource, toPageResource } from "../../../shared/pages/page.resource.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import { folderVisibleTo } from "./pages.routes.ts";

export const searchResult = resolvedPageResource
  .extend({ snippet: z.string().meta({ description: "HTML-escaped, matched words marked with <mark>" }) })
  .meta({ id: "SearchHit", description: "A page that matches, with a marked snippet" });

/** An instant with its offset, compared as `updatedAt` is stored: ISO-8601 in UTC with milliseconds. */
const updatedInstant = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value).toISOString())
  .describe("ISO-8601 time with an offset; compared with updatedAt, bound excluded");

const searchQuerystring = paginationQuery.extend({
  q: z.string().trim().min(1).max(500),
  folderId: folderIdSchema.optional().describe("only pages in this folder or below it (a folder the caller cannot see holds nothing)"),
  ownerId: userIdSchema.optional().describe("only pages of this workspace owner"),
  updatedAfter: updatedInstant.optional(),
  updatedBefore: updatedInstant.optional(),
  in: z.enum(["title"]).optional().describe("title: every term must match the title"),
});

export function searchQueryRoutes(app: App, views: ReadModels): void {
  app.get(
    "/search",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        querystring: searchQuerystring,
        response: { 200: listOf(searchResult), "4xx": errorBody },
      },
    },
    async (request) => {
      const { q, cursor, limit, folderId, ownerId, updatedAfter, updatedBefore } = request.query;
      const terms = parseSearch(q);
      // A fixed key order: the cursor is tied to these filters by their JSON.
      const filters: SearchFilters = {
        ...(folderId !== undefined ? { folderId } : {}),
        ...(ownerId !== undefined ? { ownerId } : {}),
        ...(updatedAfter !== undefined ? { updatedAfter } : {}),
        ...(updatedBefore !== undefined ? { updatedBefore } : {}),
        ...(request.query.in === "title" ? { titleOnly: true } : {}),
      };
      const offset = decodeSearchCursor(cursor, terms, filters);
      const context = await views.access.contextFor(principalOf(request).user.id);
      // A folder the caller cannot view holds nothing for them, as an unknown one: neither is searched.
      if (folderId !== undefined && !(await folderVisibleTo(views, context, folderId))) return { data: [], nextCursor: null };
      const hits = await views.pages.search({ terms, visibleTo: visibilityFilter(context), filters, offset, limit });
      const kept = hits.slice(0, limit);
      const next = offset + kept.length;
      const nextCursor = hits.length > limit && next <= SEARCH_MAX_OFFSET ? encodeSearchCursor(next, terms, filters) : null;
      const data = presentVisible(context, "page", kept.map((hit) => ({ ...hit.page, hit })), (item, permission) => ({
        ...toPageResource(item, permission),
        folderPath: item.folderPath,
        snippet: renderSnippet(item.hit.snippet),
      }));
      return { data, nextCursor };
    },
  );
}
