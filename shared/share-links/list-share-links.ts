// Reading share links (GET /share-links, GET /share-links/{id} and the MCP server's list_share_links): the caller's
// own links, or those of a page or folder they may share, newest first; records only, the secret never again.
import type { Principal } from "../auth/principal.ts";
import { AppError } from "../errors/app-error.ts";
import { atLeast } from "../kernel/permissions.ts";
import { decodeCursor, pageOf } from "../read-store/pagination.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { visibleEntity } from "../sharing/shared-entity.ts";
import { managedShareLink } from "./manage-share-link.ts";
import type { ShareLinkEntityType } from "./share-link.decider.ts";
import { toShareLinkResource, type ShareLinkResource } from "./share-link.resource.ts";
import type { ShareLinksView } from "./share-links.view.ts";

export interface ListShareLinksQuery {
  readonly limit: number;
  readonly cursor?: string | undefined;
  /** Both or neither: a page's or folder's links instead of the caller's own. */
  readonly entityType?: ShareLinkEntityType | undefined;
  readonly entityId?: string | undefined;
}

export async function listShareLinks(
  views: ReadModels,
  principal: Principal,
  query: ListShareLinksQuery,
): Promise<{ data: ShareLinkResource[]; nextCursor: string | null }> {
  const { limit, cursor, entityType, entityId } = query;
  const before = decodeCursor(cursor);
  let rows;
  if (entityType !== undefined && entityId !== undefined) {
    const { permission } = await visibleEntity(views, principal, entityType, entityId);
    if (!atLeast(permission, "admin")) throw new AppError("forbidden", `you may not share this ${entityType}`);
    rows = await views.shareLinks.listForEntity(entityType, entityId, before, limit + 1);
  } else {
    rows = await views.shareLinks.listForCreator(principal.user.id, before, limit + 1);
  }
  const { rows: kept, nextCursor } = pageOf(rows, limit, (link) => ({ position: link.position, id: "" }));
  return { data: kept.map((link) => toShareLinkResource(link)), nextCursor };
}

export async function readShareLink(
  views: ReadModels,
  principal: Principal,
  linkId: string,
): Promise<ShareLinkResource> {
  return toShareLinkResource(await managedShareLink(views, principal, linkId, "read"));
}

/** The link as the read side now holds it, once a write is visible; `url` only in the creation answer. */
export async function recordedShareLink(
  views: { readonly shareLinks: ShareLinksView },
  linkId: string,
  url: string | null = null,
): Promise<ShareLinkResource> {
  const link = await views.shareLinks.get(linkId);
  if (!link) throw new AppError("internal", "share link was not recorded");
  return toShareLinkResource(link, url);
}
