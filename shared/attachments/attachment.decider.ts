// A file attached to a page: recorded once, after its bytes are stored, on stream attachment-<id>; deleting it
// records AttachmentDeleted (the bytes stay until the page is purged). A vault import that finds the file it
// attached before changed stores the new bytes under the same id and records AttachmentReplaced. Reading it needs view permission on
// its page, changing it edit permission.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { attachmentIdSchema, pageIdSchema, userIdSchema } from "../kernel/ids.ts";

const uploadedAttachment = z.object({
  attachmentId: attachmentIdSchema,
  pageId: pageIdSchema,
  uploaderId: userIdSchema,
  /** The name it is shown and downloaded under: the `name` field, else the file's own name. */
  filename: z.string(),
  /** The file's name as the client sent it, without any directory part. */
  originalName: z.string(),
  /** The type read from the bytes where the format has a signature, else from the name (attachment-types.ts). */
  mimeType: z.string(),
  size: z.number().int().nonnegative(),
  /** SHA-256 of the bytes, hex: the strong ETag they are served with. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type UploadedAttachment = z.infer<typeof uploadedAttachment>;

export const attachmentEventSchemas = [
  z.object({ type: z.literal("AttachmentUploaded"), data: uploadedAttachment }),
  /** New bytes under the same id (a vault imported again): the whole record as it now is. */
  z.object({ type: z.literal("AttachmentReplaced"), data: uploadedAttachment }),
  z.object({
    type: z.literal("AttachmentDeleted"),
    data: z.object({ attachmentId: attachmentIdSchema, pageId: pageIdSchema, filename: z.string() }),
  }),
] as const;
export type AttachmentEvent = z.infer<(typeof attachmentEventSchemas)[number]>;

export type AttachmentCommand =
  | { type: "RecordAttachmentUpload"; attachment: UploadedAttachment }
  /** The bytes under the attachment's id were replaced: records the new type, size and digest. */
  | { type: "RecordAttachmentReplacement"; attachment: UploadedAttachment }
  | { type: "DeleteAttachment"; pageId: string };
export type AttachmentState = { status: "absent" } | { status: "live" | "deleted"; attachment: UploadedAttachment };

export const attachmentStream = (attachmentId: string): string => `attachment-${attachmentId}`;

export const attachmentDecider: Decider<AttachmentCommand, AttachmentState, AttachmentEvent> = {
  initialState: { status: "absent" },
  decide(command, state) {
    switch (command.type) {
      case "RecordAttachmentUpload":
        if (state.status !== "absent") throw new AppError("conflict", "attachment already recorded");
        return [{ type: "AttachmentUploaded", data: command.attachment }];
      case "RecordAttachmentReplacement": {
        if (state.status !== "live" || state.attachment.pageId !== command.attachment.pageId)
          throw new AppError("not_found", "attachment not found");
        const { mimeType, size, sha256 } = state.attachment;
        if (
          mimeType === command.attachment.mimeType &&
          size === command.attachment.size &&
          sha256 === command.attachment.sha256
        )
          return [];
        return [{ type: "AttachmentReplaced", data: command.attachment }];
      }
      case "DeleteAttachment": {
        // Another page's attachment is as missing as one never uploaded: the id alone reveals nothing.
        if (state.status !== "live" || state.attachment.pageId !== command.pageId)
          throw new AppError("not_found", "attachment not found");
        const { attachmentId, pageId, filename } = state.attachment;
        return [{ type: "AttachmentDeleted", data: { attachmentId, pageId, filename } }];
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case "AttachmentUploaded":
      case "AttachmentReplaced":
        return { status: "live", attachment: event.data };
      case "AttachmentDeleted":
        return state.status === "absent" ? state : { status: "deleted", attachment: state.attachment };
    }
  },
};
