// One page of the pages a caller can see (GET /pages and the MCP server's list_pages): all of them, newest
// changed first, or those directly in one folder; a folder they cannot view holds nothing, as an unknown one.
import type { Principal } from "../auth/principal.ts";
import { presentVisible, visibilityFilter } from "../access/effective-permission.ts";
import { folderVisibleTo } from "../folders/folder-visible-to.ts";
import { toFolderResource, type FolderResource } from "../folders/folder.resource.ts";
import { decodeListCursor, pageOf } from "../read-store/pagination.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { toPageResource, type PageResource } from "./page.resource.ts";

export interface ListPagesQuery {
  readonly parentId?: string | undefined;
  readonly cursor?: string | undefined;
  readonly limit: number;
}

export async function listPages(
  views: ReadModels,
  principal: Principal,
  query: ListPagesQuery,
): Promise<{ data: PageResource[]; nextCursor: string | null }> {
  const context = await views.access.contextFor(principal.user.id);
  const { limit, cursor, parentId } = query;
  if (parentId !== undefined && !(await folderVisibleTo(views, context, parentId)))
    return { data: [], nextCursor: null };
  const rows = await views.pages.list({
    visibleTo: visibilityFilter(context),
    before: decodeListCursor(cursor),
    limit,
    parentId: parentId ?? null,
    listedFor: context.userId,
  });
  const { rows: kept, nextCursor } = pageOf(rows, limit, (page) => ({ position: page.updatedPosition, id: page.id }));
  return { data: presentVisible(context, "page", kept, toPageResource), nextCursor };
}

/** One page of the folders the caller can see; with `parentId`, those directly inside it. */
export async function listFolders(
  views: ReadModels,
  principal: Principal,
  query: ListPagesQuery,
): Promise<{ data: FolderResource[]; nextCursor: string | null }> {
  const context = await views.access.contextFor(principal.user.id);
  const { limit, cursor, parentId } = query;
  if (parentId !== undefined && !(await folderVisibleTo(views, context, parentId)))
    return { data: [], nextCursor: null };
  const rows = await views.folders.list({
    visibleTo: visibilityFilter(context),
    before: decodeListCursor(cursor),
    limit,
    ...(parentId === undefined ? {} : { parentId }),
  });
  const { rows: kept, nextCursor } = pageOf(rows, limit, (folder) => ({
    position: folder.updatedPosition,
    id: folder.id,
  }));
  return { data: presentVisible(context, "folder", kept, toFolderResource), nextCursor };
}
