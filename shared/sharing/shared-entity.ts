// The page or folder a sharing route names, with the caller's effective permission on it. What the caller
// cannot view answers 404, as everywhere else (docs/guide/access.md).
import type { EntityType } from "../access/access.view.ts";
import { visibleFolder, visiblePage } from "../access/authorize.ts";
import { effectivePermission } from "../access/effective-permission.ts";
import type { Principal } from "../auth/principal.ts";
import type { Permission } from "../kernel/permissions.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";

export interface SharedEntity {
  readonly type: EntityType;
  readonly id: string;
  readonly ownerId: string;
}

export async function visibleEntity(
  models: ReadModels,
  principal: Principal,
  type: EntityType,
  id: string,
): Promise<{ entity: SharedEntity; permission: Permission }> {
  if (type === "page") {
    const { page, permission } = await visiblePage(models, principal, id);
    return { entity: { type, id, ownerId: page.ownerId }, permission };
  }
  const { folder, permission } = await visibleFolder(models, principal, id);
  return { entity: { type, id, ownerId: folder.ownerId }, permission };
}

/** The user's effective permission on a page or folder; null when it does not exist or they cannot view it. */
export async function permissionOn(
  models: ReadModels,
  userId: string,
  type: EntityType,
  id: string,
): Promise<Permission | null> {
  const record = type === "page" ? await models.pages.get(id) : await models.folders.get(id);
  if (!record) return null;
  return effectivePermission(await models.access.contextFor(userId), { kind: type, ...record });
}
