// AttachmentUploaded, AttachmentReplaced and AttachmentDeleted into the attachments read model: a replaced one is
// listed as uploaded when its new bytes were.
import type { AttachmentEvent } from "../../../shared/attachments/attachment.decider.ts";
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectAttachment<Tx>(
  { event, metadata, position }: StoredEvent<AttachmentEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  switch (event.type) {
    case "AttachmentUploaded":
    case "AttachmentReplaced": {
      const { attachmentId, ...attachment } = event.data;
      return writers.attachments.put(tx, {
        id: attachmentId,
        ...attachment,
        createdAt: metadata.occurredAt,
        position,
        deletedAt: null,
      });
    }
    case "AttachmentDeleted":
      return writers.attachments.markDeleted(tx, event.data.attachmentId, metadata.occurredAt);
  }
}
