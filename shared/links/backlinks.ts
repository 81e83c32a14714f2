// The pages that link to a page, as one caller may see them: the target must be visible (404 otherwise, as a
// missing page), and each linking page is listed only when the caller can view it; the others are passed over
// without a trace, so a link from a page they cannot see changes nothing in the answer.
import type { Principal } from "../auth/principal.ts";
import { visiblePage } from "../access/authorize.ts";
import { effectivePermission } from "../access/effective-permission.ts";
import { seenBy, type Seen } from "../access/seen-by.ts";
import type { Permission } from "../kernel/permissions.ts";
import type { PageRecord } from "../pages/pages.view.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { pageOf, type Page } from "../read-store/pagination.ts";

/** Links read per step while looking for `limit + 1` the caller can see. */
const STEP = 100;

export interface Backlink {
  readonly page: Seen<PageRecord>;
  readonly permission: Permission;
  readonly position: number;
}

export async function backlinksOf(views: ReadModels, principal: Principal, pageId: string, query: { before: number | null; limit: number }): Promise<Page<Backlink>> {
  await visiblePage(views, principal, pageId);
  const context = await views.access.contextFor(principal.user.id);
  const found: Backlink[] = [];
  let before = query.before;
  const step = Math.max(STEP, query.limit + 1);
  for (;;) {
    const links = await views.links.linksTo(pageId.toLowerCase(), before, step);
    for (const link of links) {
      const page = await views.pages.get(link.sourceId);
      const permission = page ? effectivePermission(context, { kind: "page", ...page }) : null;
      if (page && permission) found.push({ page: seenBy(context, page), permission, position: link.position });
      if (found.length > query.limit) break;
    }
    const last = links.at(-1);
    if (found.length > query.limit || links.length < step || last === undefined) break;
    before = last.position;
  }
  // One link per source and target, each recorded by its own event: positions are unique within one target.
  const { rows, nextCursor } = pageOf(found, query.limit, (link) => ({ position: link.position, id: "" }));
  return { data: rows, nextCursor };
}
