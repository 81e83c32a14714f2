// Revoking a share link (DELETE /share-links/{id} and the MCP server's revoke_share_link): its creator, or whoever
// may share its page or folder now (manage-share-link.ts); anyone else is answered as for a link that does not
// exist. Revoking a revoked link changes nothing.
import type { Actor } from "../commands/guarded-command.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import type { ShareLinkId } from "../kernel/ids.ts";
import { managedShareLink } from "./manage-share-link.ts";
import { shareLinkCommands } from "./share-link.commands.ts";

export async function revokeShareLink(
  ports: WritePorts,
  { principal, context }: Actor,
  linkId: ShareLinkId,
): Promise<{ position: number | null }> {
  await managedShareLink(ports.views, principal, linkId, "revoke");
  const { position } = await shareLinkCommands.handle(
    ports.eventStore,
    linkId,
    { type: "RevokeShareLink", linkId },
    context,
  );
  return { position };
}
