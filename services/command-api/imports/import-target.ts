// Where an import puts what it makes: the caller's root, or a folder (`?folderId=`) on which the caller holds
// edit, in the folder owner's workspace. A folder the caller cannot see answers 404 as a missing one does.
import { requirePermission, visibleFolder } from "../../../shared/access/authorize.ts";
import type { Principal } from "../../../shared/auth/principal.ts";
import { folderIdSchema, userIdSchema, type FolderId, type UserId } from "../../../shared/kernel/ids.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

export interface ImportTarget {
  /** Whose workspace the import writes into: whose quota it spends. */
  readonly ownerId: UserId;
  /** The folder imported into and its path; null for the caller's root. */
  readonly folder: { readonly id: FolderId; readonly path: string } | null;
}

export async function importTarget(
  models: ReadModels,
  principal: Principal,
  folderId: string | null,
): Promise<ImportTarget> {
  if (folderId === null) return { ownerId: userIdSchema.parse(principal.user.id), folder: null };
  const { folder, permission } = await visibleFolder(models, principal, folderId);
  requirePermission(permission, "edit", "folder");
  return {
    ownerId: userIdSchema.parse(folder.ownerId),
    folder: { id: folderIdSchema.parse(folder.id), path: folder.path },
  };
}
