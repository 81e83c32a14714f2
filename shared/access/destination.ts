// Where a page or folder may be moved: into a folder of the same owner's workspace on which the caller holds
// edit, or to that workspace's root, which needs edit on the workspace as a whole (its owner, or a member
// whose role is editor or admin). Moves never cross workspaces: what is inside a workspace belongs to its owner.
import type { Principal } from "../auth/principal.ts";
import { AppError } from "../errors/app-error.ts";
import { atLeast, roleToPermission } from "../kernel/permissions.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { requirePermission, visibleFolder } from "./authorize.ts";

export async function requireDestination(
  models: ReadModels,
  principal: Principal,
  ownerId: string,
  parentId: string | null,
): Promise<void> {
  if (parentId === null) {
    if (ownerId === principal.user.id) return;
    const role = (await models.access.contextFor(principal.user.id)).workspaceRoles.get(ownerId);
    if (!atLeast(role ? roleToPermission[role] : null, "edit"))
      throw new AppError("forbidden", "you may not move items to the root of this workspace");
    return;
  }
  const { folder, permission } = await visibleFolder(models, principal, parentId);
  requirePermission(permission, "edit", "folder");
  if (folder.ownerId !== ownerId)
    throw new AppError("conflict", "parentId: items move only within their owner's workspace");
}
