// Who may see and manage a share link. Whoever may share its page or folder now (admin or owner) may read,
// change and revoke it, as for every other kind of sharing; its creator may always read and revoke it (their own
// link), but changes it only while they may share. Anyone else is answered 404, as for a link that does not
// exist, so a link's existence is not disclosed.
import type { Principal } from "../auth/principal.ts";
import { AppError } from "../errors/app-error.ts";
import { atLeast } from "../kernel/permissions.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { permissionOn } from "../sharing/shared-entity.ts";
import type { ShareLinkRecord } from "./share-links.view.ts";

export type ShareLinkUse = "read" | "revoke" | "change";

export async function managedShareLink(
  views: ReadModels,
  principal: Principal,
  linkId: string,
  use: ShareLinkUse,
): Promise<ShareLinkRecord> {
  const link = await views.shareLinks.get(linkId);
  if (!link) throw new AppError("not_found", "share link not found");
  if (use !== "change" && link.createdBy === principal.user.id) return link;
  const permission = await permissionOn(views, principal.user.id, link.entityType, link.entityId);
  if (atLeast(permission, "admin")) return link;
  if (link.createdBy === principal.user.id)
    throw new AppError("forbidden", `you may no longer share this ${link.entityType}`);
  throw new AppError("not_found", "share link not found");
}
