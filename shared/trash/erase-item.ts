// An operator erasing one page's or folder's content (`npm run erase -- --page ID | --folder ID`), live or in
// the trash: a live item is first deleted as its owner would delete it (a folder with everything below it),
// then purged, which destroys its key (purge-item.ts). An item purged already has its key destroyed again, so
// a purge recorded before content was sealed, or one cut short, is completed. Safe to run again.
import type { CommandContext } from "../commands/command-context.ts";
import { folderCommands } from "../folders/folder.commands.ts";
import { folderIdSchema, pageIdSchema } from "../kernel/ids.ts";
import { pageCommands } from "../pages/page.commands.ts";
import { deleteFolderTree } from "./folder-trash.ts";
import { eraseCopiesOf, purgeDeletedFolder, purgeDeletedPage, purgeFolderTree, type PurgePorts } from "./purge-item.ts";
import type { TrashType } from "./trash.view.ts";

export type EraseItemOutcome = { readonly found: false } | { readonly found: true; readonly position: number | null };

/** `context.actorId` is recorded as who deleted and purged it; the item's owner is the natural choice. */
export async function eraseItem(
  ports: PurgePorts,
  type: TrashType,
  id: string,
  context: (ownerId: string) => CommandContext,
): Promise<EraseItemOutcome> {
  const erased = type === "page" ? await erasePage(ports, id, context) : await eraseFolder(ports, id, context);
  if (erased === null) return { found: false };
  await eraseCopiesOf(ports, erased.purged);
  return { found: true, position: erased.position };
}

type Erased = { readonly position: number | null; readonly purged: string[] } | null;

async function erasePage(ports: PurgePorts, id: string, context: (ownerId: string) => CommandContext): Promise<Erased> {
  const pageId = pageIdSchema.parse(id);
  const state = await pageCommands.load(ports.eventStore, pageId);
  if (state.status === "absent") return null;
  const acting = context(state.ownerId);
  let position: number | null = null;
  if (state.status === "live")
    position = (await pageCommands.handle(ports.eventStore, pageId, { type: "DeletePage", pageId }, acting)).position;
  return { position: (await purgeDeletedPage(ports, pageId, acting)).position ?? position, purged: [pageId] };
}

async function eraseFolder(
  ports: PurgePorts,
  id: string,
  context: (ownerId: string) => CommandContext,
): Promise<Erased> {
  const folderId = folderIdSchema.parse(id);
  const state = await folderCommands.load(ports.eventStore, folderId);
  if (state.status === "absent") return null;
  const acting = context(state.ownerId);
  if (state.status !== "live") return purgeFolderTree(ports, folderId, acting);
  const owner = await ports.views.users.get(state.ownerId);
  if (!owner) return null;
  // What lies below is listed before the deletion: the trash read model may not show it yet (services stopped).
  const below = await ports.views.folders.below(folderId);
  const principal = { user: owner, authentication: "session" as const, scopes: null, tokenId: null, expiresAt: null };
  let position = (await deleteFolderTree(ports, { principal, context: acting }, folderId)).position;
  const along = (purged: { position: number | null }) => {
    position = purged.position ?? position;
  };
  const folders = [...below.folders].sort((a, b) => b.ancestorIds.length - a.ancestorIds.length);
  for (const pageId of below.pageIds) along(await purgeDeletedPage(ports, pageId, acting));
  for (const folder of folders) along(await purgeDeletedFolder(ports, folder.id, acting));
  along(await purgeDeletedFolder(ports, folderId, acting));
  return { position, purged: [...below.pageIds, ...folders.map((folder) => folder.id), folderId] };
}
