// The attachment record clients see (docs/guide/attachments.md), the link that shows it in markdown, and
// the Content-Disposition its bytes are served with.
import { z } from "zod";
import { escapeMarkdownText } from "../images/image.resource.ts";
import type { AttachmentRecord } from "./attachments.view.ts";

export const attachmentResource = z
  .object({
    id: z.uuid(),
    pageId: z.uuid(),
    url: z.string(),
    markdown: z.string(),
    filename: z.string(),
    originalName: z.string(),
    mimeType: z.string(),
    size: z.number().int(),
    sha256: z.string(),
    createdBy: z.string(),
    createdAt: z.string(),
  })
  .meta({
    id: "Attachment",
    description: "A file attached to a page: its record, with the markdown link that shows it",
  });
export type AttachmentResource = z.infer<typeof attachmentResource>;

/** The upload form as the reference shows it; the route reads the parts as they stream and checks them itself. */
export const attachmentUploadForm = z.object({
  file: z.string().meta({
    format: "binary",
    description:
      "the file, of any type, at most ATTACHMENT_MAX_BYTES (50 MB by default); its type is read from its bytes where the format has a signature, else from its name",
  }),
  name: z
    .string()
    .max(255)
    .optional()
    .meta({ description: "the name it is shown and downloaded under; the file's own name when absent" }),
});

/** Where the query API serves the bytes: a path on the API's own origin, so the markdown holds no host name. */
export const attachmentUrl = (attachmentId: string): string => `/api/v1/attachments/${attachmentId}`;

/** A link to an attachment anywhere in markdown, with or without a host: its id. */
export const ATTACHMENT_REFERENCE =
  /\/api\/v1\/attachments\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})/g;

/** `[name](url)`: the name shown literally. */
function attachmentMarkdown(filename: string, url: string): string {
  return `[${escapeMarkdownText(filename)}](${url})`;
}

export function toAttachmentResource(attachment: AttachmentRecord): AttachmentResource {
  const url = attachmentUrl(attachment.id);
  return {
    id: attachment.id,
    pageId: attachment.pageId,
    url,
    markdown: attachmentMarkdown(attachment.filename, url),
    filename: attachment.filename,
    originalName: attachment.originalName,
    mimeType: attachment.mimeType,
    size: attachment.size,
    sha256: attachment.sha256,
    createdBy: attachment.uploaderId,
    createdAt: attachment.createdAt,
  };
}

/**
 * `inline` or `attachment` with the name twice (RFC 6266): an ASCII fallback with anything a header could
 * misread replaced, and the exact name percent-encoded as UTF-8.
 */
export function contentDisposition(disposition: "inline" | "attachment", filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%;]/g, "_") || "download";
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
