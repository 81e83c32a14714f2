// GET /search: full-text search over the titles and markdown of the pages the caller can see.
import { z } from "zod";
import { presentVisible, visibilityFilter } from "../../../shared/access/effective-permission.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { decodeSearchCursor, encodeSearchCursor, parseSearch, renderSnippet, SEARCH_MAX_OFFSET } from "../../../shared/pages/page-search.ts";
import { resolvedPageResource, toPageResource } from "../../../shared/pages/page.resource.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

export const searchResult = resolvedPageResource.extend({ snippet: z.string() });

export function searchQueryRoutes(app: App, views: ReadModels): void {
  app.get(
    "/search",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        querystring: paginationQuery.extend({ q: z.string().trim().min(1).max(500) }),
        response: { 200: listOf(searchResult), "4xx": errorBody },
      },
    },
    async (request) => {
      const { q, cursor, limit } = request.query;
      const terms = parseSearch(q);
      const offset = decodeSearchCursor(cursor, terms);
      const context = await views.access.contextFor(principalOf(request).user.id);
      const hits = await views.pages.search({ terms, visibleTo: visibilityFilter(context), offset, limit });
      const kept = hits.slice(0, limit);
      const next = offset + kept.length;
      const nextCursor = hits.length > limit && next <= SEARCH_MAX_OFFSET ? encodeSearchCursor(next, terms) : null;
      const data = presentVisible(context, "page", kept.map((hit) => ({ ...hit.page, hit })), (item, permission) => ({
        ...toPageResource(item, permission),
        folderPath: item.folderPath,
        snippet: renderSnippet(item.hit.snippet),
      }));
      return { data, nextCursor };
    },
  );
}
