// Sending an attachment's bytes, once the caller's right to them is settled: the one function every route that
// serves attachments calls (the attachment route here; a share link's route, with the link's own check). Types a
// browser could run (HTML, SVG, XML, scripts, anything unknown) go as application/octet-stream to download;
// PDFs, audio, video and raster images may show inline. Always nosniff and a sandboxing CSP, so even a file
// shown inline runs nothing. One byte range is answered 206 (audio and video seek), a range past the end 416;
// the ETag is the bytes' SHA-256 and If-None-Match answers 304.
import type { FastifyReply, FastifyRequest } from "fastify";
import { contentDisposition } from "../../../shared/attachments/attachment.resource.ts";
import { attachmentBlobKey } from "../../../shared/attachments/attachment-blobs.ts";
import type { AttachmentRecord } from "../../../shared/attachments/attachments.view.ts";
import { matchesAny, rangeOf } from "../../../shared/attachments/byte-range.ts";
import { servingOf } from "../../../shared/attachments/file-type.ts";
import { blobKeySchema, type BlobReader } from "../../../shared/blobs/blob-store.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";

/** The bytes behind an id never change, so a browser may keep them a year; `private`: never in a shared cache. */
const CACHE_CONTROL = "private, max-age=31536000, immutable";
/** Nothing the file holds may load, run or reach anything: a sandboxed document with no sources. */
const ATTACHMENT_CSP = "default-src 'none'; sandbox";

/**
 * `cacheControl`: how long a browser may keep the bytes; a share link's route passes `no-store`, so a revoked
 * link's files leave with it.
 */
export async function serveAttachment(
  request: FastifyRequest,
  reply: FastifyReply,
  blobs: BlobReader,
  attachment: AttachmentRecord,
  cacheControl: string = CACHE_CONTROL,
): Promise<FastifyReply> {
  const etag = `"${attachment.sha256}"`;
  const { contentType, disposition } = servingOf(attachment.mimeType);
  reply
    .header("etag", etag)
    .header("cache-control", cacheControl)
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", ATTACHMENT_CSP)
    .header("accept-ranges", "bytes");
  if (matchesAny(request.headers["if-none-match"], etag)) return reply.code(304).send(null);
  // If-Range with another (or a weak) tag: the file changed for the client, so it gets the whole of it.
  const ifRange = request.headers["if-range"];
  const range =
    ifRange === undefined || (typeof ifRange === "string" && ifRange.trim() === etag)
      ? rangeOf(request.headers.range, attachment.size)
      : ({ kind: "whole" } as const);
  if (range.kind === "unsatisfiable") {
    throw new AppError("range_not_satisfiable", `range: the file has ${attachment.size} bytes`, {
      "content-range": `bytes */${attachment.size}`,
    });
  }
  const key = blobKeySchema.parse(attachmentBlobKey(attachment.id));
  const blob = range.kind === "part" ? await blobs.open(key, range) : await blobs.open(key);
  if (!blob) throw new AppError("internal", "the attachment's bytes are missing");
  reply.type(contentType).header("content-disposition", contentDisposition(disposition, attachment.filename));
  if (range.kind === "part") {
    return reply
      .code(206)
      .header("content-range", `bytes ${range.start}-${range.end}/${attachment.size}`)
      .header("content-length", String(range.end - range.start + 1))
      .send(blob.stream);
  }
  return reply.header("content-length", String(blob.size)).send(blob.stream);
}
