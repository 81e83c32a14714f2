// Page commands bound once: the page decider on stream page-<id>; changing a page needs edit on it, moving it
// edit on the destination too.
import { pageAccess } from "../access/authorize.ts";
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import { guardedCommand } from "../commands/guarded-command.ts";
import type { Actor } from "../commands/guarded-command.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { requireDestination } from "../access/destination.ts";
import type { FolderId, PageId } from "../kernel/ids.ts";
import { pageDecider, pageEventSchemas, pageStream } from "./page.decider.ts";

export const pageCommands = deciderCommandHandler({ decider: pageDecider, streamOf: (id: PageId) => pageStream(id), eventSchemas: pageEventSchemas });

/** Rename, re-icon, replace the content, delete: edit permission on the page. */
export const editPage = guardedCommand(pageCommands, pageAccess("edit"));

/**
 * Moves a page into a folder of its owner's workspace, or to its root: edit on the page and on the destination
 * (requireDestination). The move is one event in the page's stream.
 */
export async function movePage(ports: WritePorts, actor: Actor, pageId: PageId, parentId: FolderId | null): Promise<{ position: number | null }> {
  const { page } = await pageAccess("edit")(ports.views, actor.principal, pageId);
  await requireDestination(ports.views, actor.principal, page.ownerId, parentId);
  return pageCommands.handle(ports.eventStore, pageId, { type: "MovePage", pageId, parentId }, actor.context);
}
