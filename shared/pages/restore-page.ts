// Restore: the page's title, icon and content become those it had at an instant, as a new change on top of
// its history (PageRestored); nothing earlier is rewritten. Needs edit permission and the current If-Match.
import { pageAccess } from "../access/authorize.ts";
import type { CommandResult } from "../commands/decider-command-handler.ts";
import type { Actor } from "../commands/guarded-command.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { AppError } from "../errors/app-error.ts";
import { parseRecorded } from "../events.ts";
import { refuseFuture, type Instant } from "../history/instant.ts";
import { pageAsOf } from "../history/page-as-of.ts";
import type { PageId } from "../kernel/ids.ts";
import { revisionFromIfMatch } from "./page-document.ts";
import { pageCommands } from "./page.commands.ts";
import { pageStream, type PageEvent, type PageState } from "./page.decider.ts";

const mayEdit = pageAccess("edit");

export async function restorePage(
  ports: WritePorts,
  actor: Actor,
  request: { readonly pageId: PageId; readonly at: Instant; readonly ifMatch: string | undefined },
): Promise<CommandResult<PageState, PageEvent>> {
  const { pageId, at } = request;
  const { page } = await mayEdit(ports.views, actor.principal, pageId);
  const ifMatchRevision = revisionFromIfMatch(request.ifMatch, page);
  refuseFuture(at, actor.context.now, await ports.eventStore.headPosition());
  const { events } = await ports.eventStore.read(pageStream(pageId));
  const then = pageAsOf(
    events
      .map(parseRecorded)
      .map((stored) => ({ position: stored.position, occurredAt: stored.metadata.occurredAt, event: stored.event })),
    at,
  );
  if (!then) throw new AppError("validation_failed", "at: the page did not exist at that instant");
  const { title, icon, markdown, updatedPosition } = then;
  const command = {
    type: "RestorePage" as const,
    pageId,
    title,
    icon,
    markdown,
    restoredFrom: updatedPosition,
    ifMatchRevision,
  };
  return pageCommands.handle(ports.eventStore, pageId, command, actor.context);
}
