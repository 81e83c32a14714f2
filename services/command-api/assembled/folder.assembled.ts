// A folder's record as the write side knows it: name and icon from its own stream, placed where the write put it
// (or where the read models hold it). What a write answers (202) while the read models have not caught up with it.
import { effectivePermission } from "../../../shared/access/effective-permission.ts";
import { seenBy } from "../../../shared/access/seen-by.ts";
import type { Principal } from "../../../shared/auth/principal.ts";
import type { EventStore } from "../../../shared/event-store/event-store.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { folderPlacedIn } from "../../../shared/folders/folder-place.ts";
import { folderCommands } from "../../../shared/folders/folder.commands.ts";
import { toFolderResource } from "../../../shared/folders/folder.resource.ts";
import type { FolderRecord } from "../../../shared/folders/folders.view.ts";
import type { FolderId } from "../../../shared/kernel/ids.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import type { Presented } from "../write-answer.ts";

/**
 * `parentId`: where the write put the folder (a creation, a move); absent, where the read models hold it.
 * `now` is when the write was decided (its events' time).
 */
export async function assembleFolder(
  ports: { eventStore: EventStore; views: ReadModels },
  principal: Principal,
  folderId: FolderId,
  now: Date,
  parentId?: FolderId | null,
): Promise<Presented> {
  const state = await folderCommands.load(ports.eventStore, folderId);
  if (state.status !== "live") throw new AppError("not_found", "folder not found");
  const before = await ports.views.folders.get(folderId);
  const placedIn = parentId === undefined ? (before?.parentId ?? state.createdParentId) : parentId;
  const [parent, context] = await Promise.all([
    placedIn === null ? null : ports.views.folders.get(placedIn),
    ports.views.access.contextFor(principal.user.id),
  ]);
  const record: FolderRecord = {
    id: folderId,
    ownerId: state.ownerId,
    parentId: placedIn,
    name: state.name,
    icon: state.icon,
    ...folderPlacedIn(parent, state.name),
    createdAt: before?.createdAt ?? now.toISOString(),
    updatedAt: now.toISOString(),
    updatedPosition: before?.updatedPosition ?? 0,
  };
  // A write to a folder needs edit on it: what the caller holds when their grants are not readable yet.
  const permission = effectivePermission(context, { kind: "folder", ...record }) ?? "edit";
  return { body: toFolderResource(seenBy(context, record), permission) };
}
