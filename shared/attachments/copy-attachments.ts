// A duplicated page's attachments: each live attachment of the source is copied to the new page under a new
// id (bytes streamed blob to blob, never whole in memory), and the links to them in the markdown are rewritten.
// The bytes are copied before the page is created, the records after, so the copy's history starts with its
// creation and no record ever points at missing bytes.
import { randomUUID } from "node:crypto";
import { blobKeySchema, type BlobStore } from "../blobs/blob-store.port.ts";
import type { Actor } from "../commands/guarded-command.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { AppError } from "../errors/app-error.ts";
import { attachmentIdSchema, pageIdSchema, userIdSchema, type AttachmentId } from "../kernel/ids.ts";
import { attachmentBlobKey } from "./attachment-blobs.ts";
import { attachmentCommands } from "./attachment.commands.ts";
import type { UploadedAttachment } from "./attachment.decider.ts";
import type { AttachmentRecord } from "./attachments.view.ts";
import { ATTACHMENT_REFERENCE, attachmentUrl } from "./attachment.resource.ts";

/** A page with more attachments than this is refused a duplicate: each one is a copy of up to ATTACHMENT_MAX_BYTES. */
const DUPLICATE_MAX_ATTACHMENTS = 100;

export interface AttachmentCopies {
  /** The markdown with links to the source's attachments pointing at their copies. */
  rewrite(markdown: string): string;
  /** Records the copies on the new page, once it exists; the position of the last record, if any. */
  record(): Promise<number | null>;
}

/** The source's live attachments, oldest first: what a duplicate copies (and counts against the quota first). */
export async function attachmentsToCopy(views: WritePorts["views"], sourceId: string): Promise<AttachmentRecord[]> {
  const live = await views.attachments.list({ pageId: sourceId, before: null, limit: DUPLICATE_MAX_ATTACHMENTS });
  if (live.length > DUPLICATE_MAX_ATTACHMENTS)
    throw new AppError(
      "conflict",
      `the page has more than ${DUPLICATE_MAX_ATTACHMENTS} attachments; it cannot be duplicated`,
    );
  return [...live].reverse();
}

export async function copyAttachments(
  ports: WritePorts & { blobs: BlobStore },
  actor: Actor,
  live: readonly AttachmentRecord[],
  pageId: string,
): Promise<AttachmentCopies> {
  const copies = new Map<string, UploadedAttachment>();
  for (const source of live) {
    const blob = await ports.blobs.open(blobKeySchema.parse(attachmentBlobKey(source.id)));
    if (!blob) continue;
    const copyId: AttachmentId = attachmentIdSchema.parse(randomUUID());
    await ports.blobs.putStream(blobKeySchema.parse(attachmentBlobKey(copyId)), blob.stream);
    const { filename, originalName, mimeType, size, sha256 } = source;
    copies.set(source.id, {
      attachmentId: copyId,
      pageId: pageIdSchema.parse(pageId),
      uploaderId: userIdSchema.parse(actor.context.actorId),
      filename,
      originalName,
      mimeType,
      size,
      sha256,
    });
  }
  return {
    rewrite: (markdown) =>
      markdown.replace(ATTACHMENT_REFERENCE, (reference: string, id: string) => {
        const copy = copies.get(id.toLowerCase());
        return copy === undefined ? reference : attachmentUrl(copy.attachmentId);
      }),
    async record() {
      let last: number | null = null;
      for (const attachment of copies.values()) {
        const { position } = await attachmentCommands.handle(
          ports.eventStore,
          attachment.attachmentId,
          { type: "RecordAttachmentUpload", attachment },
          actor.context,
        );
        last = position ?? last;
      }
      return last;
    },
  };
}
