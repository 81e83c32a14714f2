// An erased user's own workspace goes with them: every page and folder they own, live or in the trash, is
// deleted and purged at once (PageDeleted, PagePurged; FolderDeleted, FolderPurged), its content erased with
// its key (trash/purge-item.ts), which takes it out of every read model with its history, comments (other
// people's too) and invitations; its members are removed and its pending invitations cancelled. The read
// models list what to purge; the deciders make a purge already recorded record nothing, so running it twice
// is harmless.
import type { CommandContext } from "../commands/command-context.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { AppError } from "../errors/app-error.ts";
import { folderCommands } from "../folders/folder.commands.ts";
import type { FolderRecord } from "../folders/folders.view.ts";
import {
  folderIdSchema,
  groupIdSchema,
  invitationIdSchema,
  pageIdSchema,
  userIdSchema,
  type FolderId,
} from "../kernel/ids.ts";
import { groupCommands } from "../groups/group.commands.ts";
import { invitationCommands, workspaceCommands } from "../sharing/sharing.commands.ts";
import { pageCommands } from "../pages/page.commands.ts";
import { purgeDeletedFolder, purgeDeletedPage, type PurgePorts } from "../trash/purge-item.ts";
import type { ListKey, VisibleTo } from "../read-store/list-query.ts";
import type { TrashItem } from "../trash/trash.view.ts";

/** Rows read per list query. */
const BATCH = 200;

/** The command's position, or null when what it acts on is gone already (an erasure run again). */
export async function unlessGone(run: () => Promise<{ position: number | null }>): Promise<number | null> {
  try {
    return (await run()).position;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}

async function allOf<T extends { id: string; updatedPosition: number }>(
  list: (before: ListKey | null) => Promise<T[]>,
): Promise<T[]> {
  const found: T[] = [];
  let before: ListKey | null = null;
  for (;;) {
    const rows = await list(before);
    found.push(...rows.slice(0, BATCH));
    const last = rows[Math.min(rows.length, BATCH) - 1];
    if (rows.length <= BATCH || !last) return found;
    before = { position: last.updatedPosition, id: last.id };
  }
}

async function trashOf(ports: WritePorts, ownerId: string): Promise<TrashItem[]> {
  const items: TrashItem[] = [];
  let before: number | null = null;
  for (;;) {
    const rows = await ports.views.trash.list({ ownerIds: [ownerId], folderIds: [], pageIds: [] }, before, BATCH);
    for (const item of rows.slice(0, BATCH)) {
      items.push(item);
      if (item.type === "folder") items.push(...(await ports.views.trash.deletedWith(item.id)));
    }
    const last = rows[Math.min(rows.length, BATCH) - 1];
    if (rows.length <= BATCH || !last) return items;
    before = last.position;
  }
}

/** Deletes and purges everything `ownerId` owns; answers the position of the last event appended, or null. */
export async function purgeWorkspace(
  ports: PurgePorts,
  ownerId: string,
  context: CommandContext,
): Promise<number | null> {
  let position: number | null = null;
  const along = (next: number | null) => {
    if (next !== null) position = next;
  };
  const purgePage = async (id: string) => {
    const pageId = pageIdSchema.parse(id);
    along(
      await unlessGone(() => pageCommands.handle(ports.eventStore, pageId, { type: "DeletePage", pageId }, context)),
    );
    along((await purgeDeletedPage(ports, pageId, context)).position);
  };
  const purgeFolder = async (id: string, parentId: FolderId | null) => {
    const folderId = folderIdSchema.parse(id);
    // Everything below was purged first, so the folder is empty.
    const deletion = { type: "DeleteFolder" as const, folderId, isEmpty: true, parentId, deletedWith: null };
    along(await unlessGone(() => folderCommands.handle(ports.eventStore, folderId, deletion, context)));
    along((await purgeDeletedFolder(ports, folderId, context)).position);
  };

  const visibleTo: VisibleTo = { ownerIds: [ownerId], pageIds: [], folderIds: [] };
  const folders: FolderRecord[] = await allOf((before) =>
    ports.views.folders.list({ visibleTo, before, limit: BATCH }),
  );
  for (const parentId of [null, ...folders.map((folder) => folder.id)]) {
    const pages = await allOf((before) => ports.views.pages.list({ visibleTo, before, limit: BATCH, parentId }));
    for (const page of pages) if (page.ownerId === ownerId) await purgePage(page.id);
  }
  const deepestFirst = folders
    .filter((folder) => folder.ownerId === ownerId)
    .sort((a, b) => b.ancestorIds.length - a.ancestorIds.length);
  for (const folder of deepestFirst)
    await purgeFolder(folder.id, folder.parentId === null ? null : folderIdSchema.parse(folder.parentId));
  for (const item of await trashOf(ports, ownerId)) {
    if (item.ownerId !== ownerId) continue;
    if (item.type === "page") await purgePage(item.id);
    else await purgeFolder(item.id, null);
  }
  const owner = userIdSchema.parse(ownerId);
  for (const member of await ports.views.access.membersOf(ownerId)) {
    const memberId = userIdSchema.parse(member.memberId);
    along(
      await unlessGone(() =>
        workspaceCommands.handle(
          ports.eventStore,
          owner,
          { type: "RemoveMember", ownerId: owner, memberId, actorId: owner },
          context,
        ),
      ),
    );
  }
  // The workspace's groups go with it: their members lose at once what the groups were given.
  for (let before: ListKey | null = null; ;) {
    const groups = await ports.views.groups.list({ ownerIds: [ownerId], groupIds: [], before, limit: BATCH });
    for (const group of groups) {
      const groupId = groupIdSchema.parse(group.id);
      along(
        await unlessGone(() =>
          groupCommands.handle(
            ports.eventStore,
            groupId,
            { type: "DeleteGroup", groupId, actor: { id: owner, manages: true } },
            context,
          ),
        ),
      );
    }
    const last = groups.at(-1);
    if (groups.length < BATCH || !last) break;
    before = { position: last.position, id: last.id };
  }
  for (const invitation of await ports.views.invitations.pendingFor("workspace", ownerId, context.now.toISOString())) {
    const invitationId = invitationIdSchema.parse(invitation.id);
    along(
      await unlessGone(() =>
        invitationCommands.handle(
          ports.eventStore,
          invitationId,
          { type: "CancelInvitation", invitationId, canManage: true },
          context,
        ),
      ),
    );
  }
  return position;
}
