// Page commands bound once: the page decider on stream page-<id>; changing a page needs edit on it, moving it
// edit on the destination too.
import { pageAccess, requirePermission, visiblePage } from "../access/authorize.ts";
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import { type Actor, guardedCommand } from "../commands/guarded-command.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { requireDestination } from "../access/destination.ts";
import type { FolderId, PageId } from "../kernel/ids.ts";
import { pageDecider, pageEventSchemas, pageStream } from "./page.decider.ts";

export const pageCommands = deciderCommandHandler({
  decider: pageDecider,
  streamOf: (id: PageId) => pageStream(id),
  eventSchemas: pageEventSchemas,
});

/** Rename, re-icon, replace the content, delete: edit permission on the page. */
export const editPage = guardedCommand(pageCommands, pageAccess("edit"));

/**
 * Moves a page into a folder of its owner's workspace, or to its root: edit on the page and on the destination
 * (requireDestination). The move is one event in the page's stream; a move to where it is records nothing.
 */
export async function movePage(
  ports: WritePorts,
  actor: Actor,
  pageId: PageId,
  parentId: FolderId | null,
): Promise<{ position: number | null }> {
  const { page, shown, permission } = await visiblePage(ports.views, actor.principal, pageId);
  // Where it already is, as the caller sees it (a page in a folder hidden from them is at their root): nothing
  // changes, so anyone who can see it gets 200 and no event.
  if (shown.parentId === parentId) return { position: null };
  requirePermission(permission, "edit", "page");
  await requireDestination(ports.views, actor.principal, page.ownerId, parentId);
  return pageCommands.handle(ports.eventStore, pageId, { type: "MovePage", pageId, parentId }, actor.context);
}
