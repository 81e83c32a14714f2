// Worst cases of images and attachments: the most pixels an upload decodes, and attachments of the largest
// size an upload takes.
import { randomBytes, randomUUID } from "node:crypto";
import type { Worst } from "../fixture.ts";
import { largestPng, multipart } from "../fixture/images.ts";
import { api, get, idOf, many, repeated, send, type WorstCases, type WorstRequest } from "./worst-case.ts";

/** The largest attachment an upload takes by default (ATTACHMENT_MAX_BYTES): 50 MB of bytes that do not compress. */
export const ATTACHMENT_BYTES = 50 * 1024 * 1024;
const attachmentBody = (boundary: string, bytes: number): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      randomBytes(bytes),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  );
function attachmentUpload(w: Worst, bytes: number): WorstRequest {
  const boundary = `worst${randomUUID().replaceAll("-", "")}`;
  return {
    method: "POST",
    path: api(`/pages/${w.bigPageId}/attachments`),
    headers: { cookie: w.owner.cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
    body: attachmentBody(boundary, bytes),
  };
}
/** An attachment of `bytes` uploaded to the largest page: its id. */
export async function uploadedAttachment(w: Worst, bytes: number): Promise<string> {
  const request = attachmentUpload(w, bytes);
  const reply = await fetch(`${w.server.url}${request.path}`, {
    method: "POST",
    headers: request.headers ?? {},
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const body = (await reply.json()) as Record<string, unknown>;
  if (reply.status >= 400)
    throw new Error(`attachment upload answered ${reply.status}: ${JSON.stringify(body).slice(0, 200)}`);
  return idOf(body);
}

export const imageAttachmentCases: WorstCases = {
  "POST /api/v1/pages/{pageId}/images": {
    input: "a 10000×9999 RGBA PNG (the most pixels)",
    maxIterations: 3,
    request: async (w) => {
      const boundary = `worst${randomUUID().replaceAll("-", "")}`;
      return {
        method: "POST",
        path: api(`/pages/${w.bigPageId}/images`),
        headers: { cookie: w.owner.cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
        body: Uint8Array.from(multipart(boundary, "largest.png", "image/png", await largestPng())),
      };
    },
  },
  "GET /api/v1/images/{imageId}": {
    input: "the largest image's bytes",
    request: (w) => get(w.owner, `/images/${w.imageId}`),
  },
  "POST /api/v1/pages/{pageId}/attachments": {
    input: "50 MB (ATTACHMENT_MAX_BYTES), incompressible",
    maxIterations: 3,
    request: (w) => attachmentUpload(w, ATTACHMENT_BYTES),
  },
  "GET /api/v1/pages/{pageId}/attachments": {
    input: "the largest page's attachments, limit 100",
    request: (w) => get(w.owner, `/pages/${w.bigPageId}/attachments?limit=100`),
  },
  "GET /api/v1/attachments/{attachmentId}": {
    input: "a 50 MB attachment's bytes",
    maxIterations: 3,
    prepare: async (w, n) => repeated(n, await uploadedAttachment(w, ATTACHMENT_BYTES)),
    request: (w, id) => get(w.owner, `/attachments/${id}`),
  },
  "DELETE /api/v1/pages/{pageId}/attachments/{attachmentId}": {
    input: "remove an attachment",
    prepare: (w, n) => many(n, () => uploadedAttachment(w, 1024)),
    request: (w, id) => send(w.owner, "DELETE", `/pages/${w.bigPageId}/attachments/${id}`),
  },
};
