// Access checks shared by commands and queries: an entity the caller cannot view does not exist for them
// (404); one they can view but not change answers 403.
import type { Principal } from "../auth/principal.ts";
import { AppError } from "../errors/app-error.ts";
import type { FolderRecord } from "../folders/folders.view.ts";
import { userIdSchema, type UserId } from "../kernel/ids.ts";
import { atLeast, type Permission } from "../kernel/permissions.ts";
import type { PageRecord } from "../pages/page-record.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { effectivePermission } from "./effective-permission.ts";
import { seenBy, type Seen } from "./seen-by.ts";

const verbs: Record<Permission, string> = {
  view: "view",
  comment: "comment on",
  edit: "edit",
  admin: "share",
  owner: "own",
};

export function requirePermission(held: Permission, needed: Permission, what: string): void {
  if (!atLeast(held, needed)) throw new AppError("forbidden", `you may not ${verbs[needed]} this ${what}`);
}

/** The page to decide on (`page`), and as the caller may be shown it (`shown`: only the folders they can view). */
export async function visiblePage(
  models: ReadModels,
  principal: Principal,
  pageId: string,
): Promise<{ page: PageRecord; shown: Seen<PageRecord>; permission: Permission }> {
  const page = await models.pages.get(pageId);
  const context = page ? await models.access.contextFor(principal.user.id) : null;
  const permission = page && context ? effectivePermission(context, { kind: "page", ...page }) : null;
  if (!page || !context || !permission) throw new AppError("not_found", "page not found");
  return { page, shown: seenBy(context, page), permission };
}

export async function visibleFolder(
  models: ReadModels,
  principal: Principal,
  folderId: string,
): Promise<{ folder: FolderRecord; shown: Seen<FolderRecord>; permission: Permission }> {
  const folder = await models.folders.get(folderId);
  const context = folder ? await models.access.contextFor(principal.user.id) : null;
  const permission = folder && context ? effectivePermission(context, { kind: "folder", ...folder }) : null;
  if (!folder || !context || !permission) throw new AppError("not_found", "folder not found");
  return { folder, shown: seenBy(context, folder), permission };
}

/** An access guard: the page, if the caller holds at least `needed` on it (404 when they cannot see it, 403 otherwise). */
export function pageAccess(needed: Permission) {
  return async (
    models: ReadModels,
    principal: Principal,
    pageId: string,
  ): Promise<{ page: PageRecord; shown: Seen<PageRecord>; permission: Permission }> => {
    const visible = await visiblePage(models, principal, pageId);
    requirePermission(visible.permission, needed, "page");
    return visible;
  };
}

/**
 * Who owns a page or folder created at `parentId`: the folder's owner (it lives in their workspace), which
 * needs edit permission on the folder; at the root, the caller.
 */
export async function ownerOfNewItem(
  models: ReadModels,
  principal: Principal,
  parentId: string | null,
): Promise<UserId> {
  if (parentId === null) return userIdSchema.parse(principal.user.id);
  const { folder, permission } = await visibleFolder(models, principal, parentId);
  requirePermission(permission, "edit", "folder");
  return userIdSchema.parse(folder.ownerId);
}
