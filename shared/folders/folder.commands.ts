// Folder commands bound once: the folder decider on stream folder-<id> (create, rename, delete), and moves
// decided on the owner's folder tree (folder-tree-<ownerId>) so the cycle rule holds under concurrent moves.
import type { Principal } from "../auth/principal.ts";
import { requirePermission, visibleFolder } from "../access/authorize.ts";
import { requireDestination } from "../access/destination.ts";
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import { guardedCommand, type Actor } from "../commands/guarded-command.ts";
import { loadState } from "../commands/load-state.ts";
import { toNewEvents } from "../commands/new-events.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { AppError } from "../errors/app-error.ts";
import { StreamConflictError } from "../event-store/event-store.port.ts";
import { eventGuard } from "../events.ts";
import { folderIdSchema, userIdSchema, type FolderId } from "../kernel/ids.ts";
import type { Permission } from "../kernel/permissions.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { folderDecider, folderEventSchemas, folderStream, liveFolder } from "./folder.decider.ts";
import {
  currentParent,
  folderTreeDecider,
  folderTreeEventSchemas,
  folderTreeStream,
  type FolderTreeEvent,
} from "./folder-tree.decider.ts";
import type { FolderRecord } from "./folders.view.ts";

export const folderCommands = deciderCommandHandler({
  decider: folderDecider,
  streamOf: (id: FolderId) => folderStream(id),
  eventSchemas: folderEventSchemas,
});

function folderAccess(needed: Permission) {
  return async (
    models: ReadModels,
    principal: Principal,
    folderId: string,
  ): Promise<{ folder: FolderRecord; permission: Permission }> => {
    const visible = await visibleFolder(models, principal, folderId);
    requirePermission(visible.permission, needed, "folder");
    return visible;
  };
}

/** Rename, re-icon, delete: edit permission on the folder. */
export const editFolder = guardedCommand(folderCommands, folderAccess("edit"));

const MAX_ATTEMPTS = 5;
const isTreeEvent = eventGuard<FolderTreeEvent>(folderTreeEventSchemas);

/**
 * Moves a folder into another folder of its owner's workspace, or to its root. Needs edit on the folder and on
 * the destination. The tree's state is read with its revision, the parents the decider needs are read from the
 * folders' own streams (where each was created: fixed facts), and the move is appended at that revision; a
 * concurrent move makes the append conflict and the move is decided again on the new tree.
 */
export async function moveFolder(
  ports: WritePorts,
  actor: Actor,
  folderId: FolderId,
  parentId: FolderId | null,
): Promise<{ position: number | null }> {
  const { folder, shown, permission } = await visibleFolder(ports.views, actor.principal, folderId);
  // Where it already is, as the caller sees it: nothing changes, so anyone who can see it gets 200 and no event.
  if (shown.parentId === parentId) return { position: null };
  requirePermission(permission, "edit", "folder");
  await requireDestination(ports.views, actor.principal, folder.ownerId, parentId);
  const ownerId = userIdSchema.parse(folder.ownerId);
  const stream = folderTreeStream(ownerId);
  const createdParents = new Map<string, string | null>();
  const createdParentOf = async (id: string): Promise<string | null> => {
    const known = createdParents.get(id);
    if (known !== undefined) return known;
    const state = await folderCommands.load(ports.eventStore, folderIdSchema.parse(id));
    const live = liveFolder(state);
    if (live.ownerId !== ownerId)
      throw new AppError("conflict", "parentId: items move only within their owner's workspace");
    createdParents.set(id, live.createdParentId);
    return live.createdParentId;
  };
  for (let attempt = 1; ; attempt += 1) {
    const { state, revision } = await loadState(ports.eventStore, stream, folderTreeDecider, isTreeEvent);
    await createdParentOf(folderId);
    const seen = new Set<string>([folderId]);
    for (let at: string | null | undefined = parentId; at !== null && at !== undefined && !seen.has(at);) {
      seen.add(at);
      await createdParentOf(at);
      at = currentParent(state, createdParents, at);
    }
    const events = folderTreeDecider.decide({ type: "MoveFolder", folderId, ownerId, parentId, createdParents }, state);
    if (events.length === 0) return { position: null };
    try {
      const result = await ports.eventStore.append(
        stream,
        toNewEvents(events, actor.context),
        revision === -1 ? "no_stream" : revision,
      );
      return { position: result.position };
    } catch (error) {
      if (!(error instanceof StreamConflictError)) throw error;
      if (attempt >= MAX_ATTEMPTS)
        throw new AppError("conflict", "the folder tree was changed concurrently; try again");
    }
  }
}

/** Deletes a folder the caller may edit, refused (409) while anything is inside it. */
export async function deleteFolder(
  ports: WritePorts,
  actor: Actor,
  folderId: FolderId,
): Promise<{ position: number | null }> {
  const isEmpty = await ports.views.folders.isEmpty(folderId);
  return editFolder.run(ports, actor, folderId, ({ folder }) => ({
    type: "DeleteFolder",
    folderId,
    isEmpty,
    parentId: folder.parentId === null ? null : folderIdSchema.parse(folder.parentId),
    deletedWith: null,
  }));
}
