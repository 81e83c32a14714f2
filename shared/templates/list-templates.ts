// One page of the templates a caller can view (GET /templates and the MCP server's list_templates), newest marked
// first: a template the caller cannot view is missing, never counted.
import type { Principal } from "../auth/principal.ts";
import { presentVisible, visibilityFilter } from "../access/effective-permission.ts";
import type { PageRecord } from "../pages/page-record.ts";
import { toPageResource, type PageResource } from "../pages/page.resource.ts";
import { decodeListCursor, pageOf } from "../read-store/pagination.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";

export interface ListTemplatesQuery {
  readonly cursor?: string | undefined;
  readonly limit: number;
}

export async function listTemplates(
  views: ReadModels,
  principal: Principal,
  query: ListTemplatesQuery,
): Promise<{ data: PageResource[]; nextCursor: string | null }> {
  const context = await views.access.contextFor(principal.user.id);
  const rows = await views.templates.list({
    visibleTo: visibilityFilter(context),
    before: decodeListCursor(query.cursor),
    limit: query.limit,
  });
  const { rows: kept, nextCursor } = pageOf(rows, query.limit, (row) => ({ position: row.position, id: row.pageId }));
  const pages: PageRecord[] = [];
  for (const row of kept) {
    const page = await views.pages.get(row.pageId);
    if (page) pages.push(page);
  }
  return { data: presentVisible(context, "page", pages, toPageResource), nextCursor };
}
