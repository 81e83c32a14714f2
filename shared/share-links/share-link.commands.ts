// Share-link commands bound once: the share-link decider on stream share-link-<id>.
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import type { ShareLinkId } from "../kernel/ids.ts";
import { shareLinkDecider, shareLinkEventSchemas, shareLinkStream } from "./share-link.decider.ts";

export const shareLinkCommands = deciderCommandHandler({
  decider: shareLinkDecider,
  streamOf: (id: ShareLinkId) => shareLinkStream(id),
  eventSchemas: shareLinkEventSchemas,
});
