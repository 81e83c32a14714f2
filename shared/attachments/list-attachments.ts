// A page's live attachments, newest first and paged, as one caller may see them: the page must be visible to
// them (404 otherwise, as a missing page). What GET /pages/{id}/attachments and the list_attachments tool answer.
import type { Principal } from "../auth/principal.ts";
import { visiblePage } from "../access/authorize.ts";
import { decodeListCursor, pageOf, type Page } from "../read-store/pagination.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { toAttachmentResource, type AttachmentResource } from "./attachment.resource.ts";

export async function listAttachments(
  views: ReadModels,
  principal: Principal,
  pageId: string,
  query: { cursor: string | undefined; limit: number },
): Promise<Page<AttachmentResource>> {
  await visiblePage(views, principal, pageId);
  const rows = await views.attachments.list({ pageId, before: decodeListCursor(query.cursor), limit: query.limit });
  const { rows: kept, nextCursor } = pageOf(rows, query.limit, (attachment) => ({
    position: attachment.position,
    id: attachment.id,
  }));
  return { data: kept.map(toAttachmentResource), nextCursor };
}
