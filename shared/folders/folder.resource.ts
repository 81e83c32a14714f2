// The folder record clients see (docs/guide/requests.md, Records).
import { z } from "zod";
import type { Permission } from "../kernel/permissions.ts";
import { permissionValue } from "../pages/page.resource.ts";
import type { Seen } from "../access/seen-by.ts";
import type { FolderRecord } from "./folders.view.ts";

export const folderResource = z
  .object({
    id: z.uuid(),
    parentId: z.uuid().nullable(),
    name: z.string(),
    icon: z.string().nullable(),
    ownerId: z.uuid(),
    permission: permissionValue,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Folder", description: "A folder's record" });
export type FolderResource = z.infer<typeof folderResource>;

/** Only from a record shaped for the caller (seenBy): parentId never names a folder they cannot view. */
export function toFolderResource(folder: Seen<FolderRecord>, permission: Permission): FolderResource {
  return {
    id: folder.id,
    parentId: folder.parentId,
    name: folder.name,
    icon: folder.icon,
    ownerId: folder.ownerId,
    permission,
    createdAt: folder.createdAt,
    updatedAt: folder.updatedAt,
  };
}
