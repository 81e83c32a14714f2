// Bringing an item back from the trash, judged where it would return (trash.ts): into its folder, or its
// owner's root when that folder is gone; a folder brings back what was deleted with it.
import type { Actor } from "../commands/guarded-command.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { effectivePermission } from "../access/effective-permission.ts";
import { requirePermission } from "../access/authorize.ts";
import { AppError } from "../errors/app-error.ts";
import { parseRecorded } from "../events.ts";
import { folderIdSchema, pageIdSchema } from "../kernel/ids.ts";
import { pageCommands } from "../pages/page.commands.ts";
import { pageStream } from "../pages/page.decider.ts";
import type { TrashType } from "./trash.view.ts";
import { permissionOn, placed } from "./trash.ts";
import { restoreFolderTree, restoreTakenAlong } from "./folder-trash.ts";

/**
 * A folder already back whose restore was interrupted (a crash) before it brought back all its deletion took
 * along: sending the restore again brings back the rest, judged on the folder as it stands now.
 */
async function finishFolderRestore(ports: WritePorts, actor: Actor, id: string): Promise<{ position: number | null }> {
  const [folder, taken] = await Promise.all([ports.views.folders.get(id), ports.views.trash.deletedWith(id)]);
  const context = folder && taken.length > 0 ? await ports.views.access.contextFor(actor.principal.user.id) : null;
  const permission = folder && context ? effectivePermission(context, { kind: "folder", ...folder }) : null;
  if (!permission) throw new AppError("not_found", "folder not found in the trash");
  requirePermission(permission, "edit", "folder");
  return restoreTakenAlong(ports, actor, taken);
}

/**
 * Brings an item back from the trash into its folder, or its owner's root when that folder is gone; a folder
 * brings back what was deleted with it. Only what was deleted itself is restored by its id.
 */
export async function restoreFromTrash(
  ports: WritePorts,
  actor: Actor,
  type: TrashType,
  id: string,
): Promise<{ id: string; position: number | null }> {
  const item = await ports.views.trash.get(type, id);
  if (!item && type === "folder") return { id, ...(await finishFolderRestore(ports, actor, id)) };
  if (!item || item.deletedWith !== null) throw new AppError("not_found", `${type} not found in the trash`);
  const context = await ports.views.access.contextFor(actor.principal.user.id);
  const place = await placed(ports.views, item);
  const permission = permissionOn(context, place);
  if (!permission) throw new AppError("not_found", `${type} not found in the trash`);
  requirePermission(permission, "edit", type);
  const parentId = place.parentId === null ? null : folderIdSchema.parse(place.parentId);
  if (type === "folder") return { id: item.id, ...(await restoreFolderTree(ports, actor, item, parentId)) };
  const pageId = pageIdSchema.parse(item.id);
  const { events } = await ports.eventStore.read(pageStream(pageId));
  const first = events[0];
  if (first === undefined) throw new AppError("not_found", `${type} not found in the trash`);
  const createdAt = parseRecorded(first).metadata.occurredAt;
  const { position } = await pageCommands.handle(
    ports.eventStore,
    pageId,
    { type: "UndeletePage", pageId, parentId, createdAt },
    actor.context,
  );
  return { id: pageId, position };
}
