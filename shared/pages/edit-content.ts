// Exact-span edits of a page under its ETag (the MCP server's edit_page): decided on the page's stream, so the
// edits apply to the content of the revision the ETag names, or not at all.
import { pageAccess } from "../access/authorize.ts";
import type { Actor } from "../commands/guarded-command.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import type { PageId } from "../kernel/ids.ts";
import { revisionFromIfMatch } from "./page-document.ts";
import type { SpanEdit } from "./page-edits.ts";
import { pageCommands } from "./page.commands.ts";

export async function editContent(
  ports: WritePorts,
  actor: Actor,
  request: {
    readonly pageId: PageId;
    readonly edits: readonly SpanEdit[];
    readonly etag: string;
    readonly maxChars: number;
  },
): Promise<{ position: number | null }> {
  const { page } = await pageAccess("edit")(ports.views, actor.principal, request.pageId);
  const ifMatchRevision = revisionFromIfMatch(request.etag, page);
  const { pageId, edits, maxChars } = request;
  return pageCommands.handle(
    ports.eventStore,
    pageId,
    { type: "EditContent", pageId, edits, ifMatchRevision, maxChars },
    actor.context,
  );
}
