// Whether the caller can view a folder: lists and searches treat one they cannot view as empty, as an unknown one.
import { effectivePermission } from "../access/effective-permission.ts";
import type { AccessContext } from "../access/access-context.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";

export async function folderVisibleTo(views: ReadModels, context: AccessContext, folderId: string): Promise<boolean> {
  const folder = await views.folders.get(folderId);
  return folder !== null && effectivePermission(context, { kind: "folder", ...folder }) !== null;
}
