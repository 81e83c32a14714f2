// A folder to the trash with everything below it, and back. The deletion is one request: each page and folder
// below gets its deletion on its own stream (`deletedWith` naming the folder), deepest first, and the folder
// last; restoring the folder brings back exactly what that deletion took along (not what had been deleted
// before it), top down, so every item returns into a folder that is already back.
import type { Actor } from "../commands/guarded-command.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { requirePermission, visibleFolder } from "../access/authorize.ts";
import { toNewEvents } from "../commands/new-events.ts";
import { AppError } from "../errors/app-error.ts";
import { parseRecorded } from "../events.ts";
import { folderCommands } from "../folders/folder.commands.ts";
import { folderStream } from "../folders/folder.decider.ts";
import { folderTreeStream } from "../folders/folder-tree.decider.ts";
import { folderIdSchema, pageIdSchema, userIdSchema, type FolderId } from "../kernel/ids.ts";
import { pageCommands } from "../pages/page.commands.ts";
import { pageStream } from "../pages/page.decider.ts";
import type { TrashItem } from "./trash.view.ts";

const parentOf = (id: string | null): FolderId | null => (id === null ? null : folderIdSchema.parse(id));

/** An item already gone (deleted on its own meanwhile) is passed over: it stays where it was, in the trash. */
async function unlessGone(run: () => Promise<{ position: number | null }>): Promise<number | null> {
  try {
    return (await run()).position;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}

/** Deletes a folder and everything below it: edit on the folder (which every item below inherits). */
export async function deleteFolderTree(
  ports: WritePorts,
  actor: Actor,
  folderId: FolderId,
): Promise<{ position: number | null }> {
  const { folder, permission } = await visibleFolder(ports.views, actor.principal, folderId);
  requirePermission(permission, "edit", "folder");
  const { folders, pageIds } = await ports.views.folders.below(folderId);
  let position: number | null = null;
  const along = (next: number | null) => {
    if (next !== null) position = next;
  };
  for (const id of pageIds) {
    const pageId = pageIdSchema.parse(id);
    along(
      await unlessGone(() =>
        pageCommands.handle(
          ports.eventStore,
          pageId,
          { type: "DeletePage", pageId, deletedWith: folderId },
          actor.context,
        ),
      ),
    );
  }
  for (const below of [...folders].sort((a, b) => b.ancestorIds.length - a.ancestorIds.length)) {
    const id = folderIdSchema.parse(below.id);
    const command = {
      type: "DeleteFolder" as const,
      folderId: id,
      isEmpty: true,
      parentId: parentOf(below.parentId),
      deletedWith: folderId,
    };
    along(await unlessGone(() => folderCommands.handle(ports.eventStore, id, command, actor.context)));
  }
  const command = {
    type: "DeleteFolder" as const,
    folderId,
    isEmpty: true,
    parentId: parentOf(folder.parentId),
    deletedWith: null,
  };
  along((await folderCommands.handle(ports.eventStore, folderId, command, actor.context)).position);
  return { position };
}

async function createdAtOf(ports: WritePorts, stream: string): Promise<string> {
  const { events } = await ports.eventStore.read(stream);
  const first = events[0];
  if (first === undefined) throw new AppError("not_found", "not found in the trash");
  return parseRecorded(first).metadata.occurredAt;
}

/**
 * Brings a deleted folder back into `parentId` (its own folder, or the root when that is gone), then what its
 * deletion took along. Returning to the root is a move on the owner's folder tree, recorded first, so the
 * tree's cycle rule knows where the folder is.
 */
export async function restoreFolderTree(
  ports: WritePorts,
  actor: Actor,
  item: TrashItem,
  parentId: FolderId | null,
): Promise<{ position: number | null }> {
  const folderId = folderIdSchema.parse(item.id);
  let position: number | null = null;
  const along = (next: number | null) => {
    if (next !== null) position = next;
  };
  if (parentId === null && item.parentId !== null) {
    const ownerId = userIdSchema.parse(item.ownerId);
    // A move to the root cannot make a cycle: nothing to decide, so it is appended whatever the tree's revision.
    const moved = toNewEvents(
      [{ type: "FolderMoved" as const, data: { folderId, ownerId, parentId: null } }],
      actor.context,
    );
    along((await ports.eventStore.append(folderTreeStream(ownerId), moved, "any")).position);
  }
  const createdAt = await createdAtOf(ports, folderStream(folderId));
  along(
    (
      await folderCommands.handle(
        ports.eventStore,
        folderId,
        { type: "UndeleteFolder", folderId, parentId, createdAt },
        actor.context,
      )
    ).position,
  );
  along((await restoreTakenAlong(ports, actor, await ports.views.trash.deletedWith(folderId))).position);
  return { position };
}

/**
 * Brings back what a folder's recursive deletion took along and is still in the trash (`taken`): all of it
 * after the folder itself, or what an interrupted restore had not reached yet when it is sent again.
 */
export async function restoreTakenAlong(
  ports: WritePorts,
  actor: Actor,
  taken: readonly TrashItem[],
): Promise<{ position: number | null }> {
  let position: number | null = null;
  const along = (next: number | null) => {
    if (next !== null) position = next;
  };
  let folders = taken.filter((entry) => entry.type === "folder");
  // Top down: a folder returns once the folder it was in is no longer waiting in the trash itself.
  while (folders.length > 0) {
    const waiting = new Set(folders.map((entry) => entry.id));
    const ready = folders.filter((entry) => entry.parentId === null || !waiting.has(entry.parentId));
    if (ready.length === 0) break;
    for (const entry of ready) {
      const id = folderIdSchema.parse(entry.id);
      const at = await createdAtOf(ports, folderStream(id));
      along(
        await unlessGone(() =>
          folderCommands.handle(
            ports.eventStore,
            id,
            { type: "UndeleteFolder", folderId: id, parentId: parentOf(entry.parentId), createdAt: at },
            actor.context,
          ),
        ),
      );
    }
    const done = new Set(ready.map((entry) => entry.id));
    folders = folders.filter((entry) => !done.has(entry.id));
  }
  for (const entry of taken.filter((candidate) => candidate.type === "page")) {
    const pageId = pageIdSchema.parse(entry.id);
    const at = await createdAtOf(ports, pageStream(pageId));
    along(
      await unlessGone(() =>
        pageCommands.handle(
          ports.eventStore,
          pageId,
          { type: "UndeletePage", pageId, parentId: parentOf(entry.parentId), createdAt: at },
          actor.context,
        ),
      ),
    );
  }
  return { position };
}
