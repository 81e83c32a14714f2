// Real images made with sharp for upload tests, and the multipart request that uploads one.
import { crc32 } from "node:zlib";
import sharp from "sharp";
import type { Client, Reply } from "./server.ts";

export type ImageKind = "jpeg" | "png" | "gif" | "webp";

/** A noisy picture (so it does not compress to nothing) encoded as `kind`. */
export function makeImage(kind: ImageKind, width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "black", noise: { type: "gaussian", mean: 128, sigma: 40 } } })
    .toFormat(kind)
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A valid PNG of exactly `size` bytes: a small image with private ancillary chunks (which decoders skip)
 * inserted before IEND to make up the size.
 */
export async function pngOfExactly(size: number): Promise<Buffer> {
  const base = await makeImage("png", 8, 8);
  const iend = base.subarray(base.length - 12);
  const parts = [base.subarray(0, base.length - 12)];
  let missing = size - base.length;
  const CHUNK_OVERHEAD = 12;
  const MAX_DATA = 1024 * 1024;
  while (missing > 0) {
    if (missing < CHUNK_OVERHEAD) throw new Error(`cannot pad a PNG by ${missing} bytes`);
    // Leave either nothing or enough for one more chunk's overhead.
    let data = Math.min(MAX_DATA, missing - CHUNK_OVERHEAD);
    const rest = missing - CHUNK_OVERHEAD - data;
    if (rest > 0 && rest < CHUNK_OVERHEAD) data -= CHUNK_OVERHEAD;
    parts.push(pngChunk("pdAt", Buffer.alloc(data, 7)));
    missing -= CHUNK_OVERHEAD + data;
  }
  const png = Buffer.concat([...parts, iend]);
  if (png.length !== size) throw new Error(`padded PNG is ${png.length} bytes, not ${size}`);
  return png;
}

export interface UploadParts {
  readonly file?: { readonly bytes: Uint8Array; readonly name?: string; readonly type?: string };
  readonly alt?: string;
}

export function uploadForm(parts: UploadParts): FormData {
  const form = new FormData();
  if (parts.alt !== undefined) form.append("alt", parts.alt);
  if (parts.file) form.append("file", new Blob([Uint8Array.from(parts.file.bytes)], { type: parts.file.type ?? "application/octet-stream" }), parts.file.name ?? "upload.bin");
  return form;
}

export function upload(client: Client, pageId: string, parts: UploadParts, headers: Record<string, string> = {}): Promise<Reply> {
  return client.call("POST", `/pages/${pageId}/images`, { body: uploadForm(parts), headers });
}
