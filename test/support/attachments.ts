// Attachment uploads for tests: the multipart form made by fetch, and a streamed one written by hand for bodies
// too large to hold (a generated file, never whole in the test's memory either).
import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import type { Client, Reply } from "./server.ts";

export function attachmentForm(
  file: { bytes: Uint8Array; name?: string; type?: string } | null,
  name?: string,
): FormData {
  const form = new FormData();
  if (name !== undefined) form.append("name", name);
  if (file)
    form.append(
      "file",
      new Blob([Uint8Array.from(file.bytes)], { type: file.type ?? "application/octet-stream" }),
      file.name ?? "upload.bin",
    );
  return form;
}

export function attach(
  client: Client,
  pageId: string,
  file: { bytes: Uint8Array; name?: string; type?: string },
  options: { name?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  return client.call("POST", `/pages/${pageId}/attachments`, {
    body: attachmentForm(file, options.name),
    headers: options.headers ?? {},
  });
}

export function authHeaders(client: Client): Record<string, string> {
  const credentials = client.credentials;
  if (credentials && "bearer" in credentials) return { authorization: `Bearer ${credentials.bearer}` };
  return credentials ? { cookie: `app-auth.session_token=${credentials.cookie}` } : {};
}

/** Deterministic bytes: block `index` of a generated file, so a test can make and check 40 MB a megabyte at a time. */
export function generatedBlock(index: number, size = 1024 * 1024): Buffer {
  const block = createHash("sha256").update(`block ${index}`).digest();
  return Buffer.alloc(size, block);
}

export const ATTACHMENT_BOUNDARY = "----attachment-test-boundary";

/**
 * POSTs a multipart body written chunk by chunk: the part head, `blocks` generated blocks, the closing
 * boundary. `stopAfter` blocks, the body is left open (the rest never sent): what a server answers then, it
 * answered before the body was all read.
 */
export function streamedAttachment(
  baseUrl: string,
  client: Client,
  pageId: string,
  options: { blocks: number; blockSize?: number; name: string; stopAfter?: number; headers?: Record<string, string> },
): Promise<{
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  sentBlocks: number;
  bodyEnded: boolean;
}> {
  const { port, hostname } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let sentBlocks = 0;
    let bodyEnded = false;
    const sent = httpRequest({
      host: hostname,
      port,
      method: "POST",
      path: `/api/v1/pages/${pageId}/attachments`,
      headers: {
        ...authHeaders(client),
        ...options.headers,
        "content-type": `multipart/form-data; boundary=${ATTACHMENT_BOUNDARY}`,
      },
    });
    sent.on("response", (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => {
        sent.destroy();
        resolve({ status: response.statusCode ?? 0, body, headers: response.headers, sentBlocks, bodyEnded });
      });
    });
    sent.on("error", (error) => {
      // A server that refused the body may close while we write: the answer, if any, is what counts.
      if (!sent.destroyed) reject(error);
    });
    sent.write(
      `--${ATTACHMENT_BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="${options.name}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
    );
    const writeNext = (): void => {
      if (options.stopAfter !== undefined && sentBlocks >= options.stopAfter) return;
      if (sentBlocks === options.blocks) {
        bodyEnded = true;
        sent.end(`\r\n--${ATTACHMENT_BOUNDARY}--\r\n`);
        return;
      }
      const ok = sent.write(generatedBlock(sentBlocks, options.blockSize));
      sentBlocks += 1;
      if (ok) setImmediate(writeNext);
      else sent.once("drain", writeNext);
    };
    writeNext();
  });
}

/** A small file that sniffs as a PDF. */
export const PDF = Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/** The attachment files in a server's blob store, stored and partial: what an upload left behind. */
export async function attachmentBlobs(dataDir: string): Promise<string[]> {
  const blobs = join(dataDir, "blobs");
  const names = [...(await readdir(blobs)), ...(await readdir(join(blobs, ".partial")))];
  return names.filter((name) => name.endsWith(".attachment") || name.includes(".attachment."));
}
