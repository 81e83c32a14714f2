// A folder as a write answers it: as the caller may see it in the read models once they show the write;
// meanwhile its stream folded with the read model's own record fold, placed where the write put it.
import { visibleFolder } from "../../../shared/access/authorize.ts";
import { effectivePermission } from "../../../shared/access/effective-permission.ts";
import { seenBy } from "../../../shared/access/seen-by.ts";
import type { Principal } from "../../../shared/auth/principal.ts";
import { recordOfStream } from "../../../shared/commands/record-of-stream.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { folderPlacedIn } from "../../../shared/folders/folder-place.ts";
import { folderStream } from "../../../shared/folders/folder.decider.ts";
import { folderRecord } from "../../../shared/folders/folder.record.ts";
import { toFolderResource, type FolderResource } from "../../../shared/folders/folder.resource.ts";
import type { FolderId } from "../../../shared/kernel/ids.ts";
import { answerOf, type Answer, type AnswerPorts } from "./answer.ts";

async function foldedFolder(
  ports: AnswerPorts,
  principal: Principal,
  folderId: FolderId,
  parentId: FolderId | null | undefined,
): Promise<FolderResource> {
  const [folded, before] = await Promise.all([
    recordOfStream(ports.eventStore, folderStream(folderId), folderRecord),
    ports.views.folders.get(folderId),
  ]);
  if (!folded) throw new AppError("not_found", "folder not found");
  // A move is decided on the owner's folder tree, not the folder's own stream.
  const placed = parentId === undefined ? (before?.parentId ?? folded.parentId) : parentId;
  const [parent, context] = await Promise.all([
    placed === null ? null : ports.views.folders.get(placed),
    ports.views.access.contextFor(principal.user.id),
  ]);
  const record = { ...folded, parentId: placed, ...folderPlacedIn(parent, folded.name) };
  // A write to a folder needs edit on it: what the caller holds when their grants are not readable yet.
  const permission = effectivePermission(context, { kind: "folder", ...record }) ?? "edit";
  return toFolderResource(seenBy(context, record), permission);
}

/** `parentId`: where the write put the folder (a creation, a move); absent, where the read models hold it. */
export const folderAnswer = (folderId: FolderId, parentId?: FolderId | null): Answer<FolderResource> =>
  answerOf(
    async (ports, principal) => {
      const { shown, permission } = await visibleFolder(ports.views, principal, folderId);
      return { body: toFolderResource(shown, permission) };
    },
    async (ports, principal) => ({ body: await foldedFolder(ports, principal, folderId, parentId) }),
  );
