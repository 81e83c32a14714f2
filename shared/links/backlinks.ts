// The pages that link to a page, as one caller may see them: the target must be visible (404 otherwise, as a
// missing page), and each linking page is listed only when the caller can view it; the others are passed over
// without a trace, so a link from a page they cannot see changes nothing in the answer.
import type { Principal } from "../auth/principal.ts";
import { visiblePage } from "../access/authorize.ts";
import { effectivePermission, visibilityFilter } from "../access/effective-permission.ts";
import { seenBy, type Seen } from "../access/seen-by.ts";
import type { Permission } from "../kernel/permissions.ts";
import type { PageRecord } from "../pages/page-record.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { pageOf, type Page } from "../read-store/pagination.ts";

export interface Backlink {
  readonly page: Seen<PageRecord>;
  readonly permission: Permission;
  readonly position: number;
}

export async function backlinksOf(
  views: ReadModels,
  principal: Principal,
  pageId: string,
  query: { before: number | null; limit: number },
): Promise<Page<Backlink>> {
  await visiblePage(views, principal, pageId);
  const context = await views.access.contextFor(principal.user.id);
  // Visibility is part of the query: links from pages the caller cannot see are neither read nor counted.
  const links = await views.links.linksTo(
    pageId.toLowerCase(),
    visibilityFilter(context),
    query.before,
    query.limit + 1,
  );
  // One link per source and target, each recorded by its own event: positions are unique within one target.
  const { rows, nextCursor } = pageOf(links, query.limit, (link) => ({ position: link.position, id: "" }));
  const data: Backlink[] = [];
  for (const link of rows) {
    const page = await views.pages.get(link.sourceId);
    const permission = page ? effectivePermission(context, { kind: "page", ...page }) : null;
    if (page && permission) data.push({ page: seenBy(context, page), permission, position: link.position });
  }
  return { data, nextCursor };
}
