// What a write answers (202) while the read models have not caught up with it: the record the read models will
// hold, folded from its stream with the read model's own fold (shared/<capability>/*.record.ts), placed in the
// folder the read models hold, and presented as the route presents it once visible.
import { effectivePermission } from "../../shared/access/effective-permission.ts";
import { seenBy, type Seen } from "../../shared/access/seen-by.ts";
import type { Principal } from "../../shared/auth/principal.ts";
import { recordOfStream } from "../../shared/commands/record-of-stream.ts";
import { threadStream } from "../../shared/threads/thread.decider.ts";
import { threadRecord } from "../../shared/threads/thread.record.ts";
import { presentThreads, type ThreadResource } from "../../shared/threads/thread.resource.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import { AppError } from "../../shared/errors/app-error.ts";
import { folderPlacedIn, placedIn } from "../../shared/folders/folder-place.ts";
import { folderStream } from "../../shared/folders/folder.decider.ts";
import { folderRecord } from "../../shared/folders/folder.record.ts";
import { toFolderResource } from "../../shared/folders/folder.resource.ts";
import { pageIdSchema, type FolderId, type InvitationId, type PageId, type ThreadId } from "../../shared/kernel/ids.ts";
import { etagOf, renderPageDocument } from "../../shared/pages/page-document.ts";
import type { PageRecord } from "../../shared/pages/page-record.ts";
import { pageCommands } from "../../shared/pages/page.commands.ts";
import { pageStream } from "../../shared/pages/page.decider.ts";
import { pageRecord } from "../../shared/pages/page.record.ts";
import { toPageResource, type PageResource } from "../../shared/pages/page.resource.ts";
import type { ReadModels } from "../../shared/read-store/read-store.port.ts";
import { invitationStream } from "../../shared/sharing/invitation.decider.ts";
import { invitationRecord } from "../../shared/sharing/invitation.record.ts";
import { toInvitationResource, type InvitationResource } from "../../shared/sharing/invitation.resource.ts";
import type { Presented } from "./write-answer.ts";

type Ports = { readonly eventStore: EventStore; readonly views: ReadModels };

/**
 * The page after the write, folded from its stream. The folder it is in, and the caller's grants, come from the
 * read models, which hold them unless they were changed within the same wait.
 */
async function foldedPage(
  ports: Ports,
  principal: Principal,
  pageId: PageId,
): Promise<{ shown: Seen<PageRecord>; resource: PageResource }> {
  const folded = await recordOfStream(ports.eventStore, pageStream(pageId), pageRecord);
  if (!folded) throw new AppError("not_found", "page not found");
  const [parent, context] = await Promise.all([
    folded.parentId === null ? null : ports.views.folders.get(folded.parentId),
    ports.views.access.contextFor(principal.user.id),
  ]);
  const record: PageRecord = { ...folded, ...placedIn(parent) };
  // A write to a page needs edit on it: what the caller holds when their grants are not readable yet.
  const permission = effectivePermission(context, { kind: "page", ...record }) ?? "edit";
  const shown = seenBy(context, record);
  return { shown, resource: toPageResource(shown, permission) };
}

/** What a page route answers while the read side is behind: the record, with its folder path, or the document. */
export const foldedPageAnswer = (ports: Ports, principal: Principal, pageId: PageId) => ({
  record: async (): Promise<Presented> => ({ body: (await foldedPage(ports, principal, pageId)).resource }),
  placed: async (): Promise<Presented> => {
    const { resource, shown } = await foldedPage(ports, principal, pageId);
    return { body: { ...resource, folderPath: shown.folderPath } };
  },
  document: async (): Promise<Presented> => {
    const [{ shown }, state] = await Promise.all([
      foldedPage(ports, principal, pageId),
      pageCommands.load(ports.eventStore, pageId),
    ]);
    const markdown = state.status === "live" ? state.markdown : "";
    return {
      body: renderPageDocument(shown, markdown),
      headers: { etag: etagOf(shown), "content-type": "text/markdown; charset=utf-8" },
    };
  },
});

/** `parentId`: where the write put the folder (a creation, a move); absent, where the read models hold it. */
export async function foldedFolderAnswer(
  ports: Ports,
  principal: Principal,
  folderId: FolderId,
  parentId?: FolderId | null,
): Promise<Presented> {
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
  return { body: toFolderResource(seenBy(context, record), permission) };
}

export async function foldedThreadAnswer(ports: Ports, threadId: ThreadId): Promise<ThreadResource> {
  const thread = await recordOfStream(ports.eventStore, threadStream(threadId), threadRecord);
  const page = thread ? await pageCommands.load(ports.eventStore, pageIdSchema.parse(thread.pageId)) : null;
  const markdown = page && page.status === "live" ? page.markdown : "";
  const [presented] = thread ? await presentThreads(ports.views.users, [thread], markdown) : [];
  if (!presented) throw new AppError("internal", "thread was not recorded");
  return presented;
}

/** Whoever just invited or resent manages the invitation: the same rules decide both. */
export async function foldedInvitationAnswer(ports: Ports, invitationId: InvitationId): Promise<InvitationResource> {
  const invitation = await recordOfStream(ports.eventStore, invitationStream(invitationId), invitationRecord);
  if (!invitation) throw new AppError("internal", "the invitation was not recorded");
  return toInvitationResource(invitation, true);
}
