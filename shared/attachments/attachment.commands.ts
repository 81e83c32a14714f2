// Attachment commands bound once: the attachment decider on stream attachment-<id>.
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import type { AttachmentId } from "../kernel/ids.ts";
import { attachmentDecider, attachmentEventSchemas, attachmentStream } from "./attachment.decider.ts";

export const attachmentCommands = deciderCommandHandler({
  decider: attachmentDecider,
  streamOf: (id: AttachmentId) => attachmentStream(id),
  eventSchemas: attachmentEventSchemas,
});
