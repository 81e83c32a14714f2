// Real images made with sharp for upload tests, and the multipart request that uploads one.
import { crc32 } from "node:zlib";
import sharp from "sharp";
import type { Client, Reply } from "./server.ts";

export type ImageKind = "jpeg" | "png" | "gif" | "webp";

/** A noisy picture (so it does not compress to nothing) encoded as `kind`. */
export function makeImage(kind: ImageKind, width = 64, height = 48): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: "black", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
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
  if (parts.file)
    form.append(
      "file",
      new Blob([Uint8Array.from(parts.file.bytes)], { type: parts.file.type ?? "application/octet-stream" }),
      parts.file.name ?? "upload.bin",
    );
  return form;
}

export function upload(
  client: Client,
  pageId: string,
  parts: UploadParts,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return client.call("POST", `/pages/${pageId}/images`, { body: uploadForm(parts), headers });
}

/** Where each frame's image data starts and ends in a GIF: after its descriptor and colour table, up to its terminator. */
function gifFrameData(gif: Buffer): Array<{ start: number; end: number }> {
  const skipSubBlocks = (at: number): number => {
    let index = at;
    while (gif[index] !== 0) index += (gif[index] ?? 0) + 1;
    return index + 1;
  };
  const colourTable = (flags: number) => (flags & 0x80 ? 3 * (1 << ((flags & 7) + 1)) : 0);
  let index = 13 + colourTable(gif[10] ?? 0);
  const frames: Array<{ start: number; end: number }> = [];
  while (index < gif.length) {
    if (gif[index] === 0x21) index = skipSubBlocks(index + 2);
    else if (gif[index] === 0x2c) {
      // The LZW minimum code size, then the data sub-blocks.
      const start = index + 10 + colourTable(gif[index + 9] ?? 0) + 1;
      const end = skipSubBlocks(start);
      frames.push({ start, end });
      index = end;
    } else break;
  }
  return frames;
}

/** An animated GIF of three noisy frames whose last frame's data is damaged (its sub-block lengths kept). */
export async function gifWithCorruptLastFrame(): Promise<Buffer> {
  const frame = (red: number) =>
    sharp({
      create: {
        width: 32,
        height: 32,
        channels: 3,
        background: { r: red, g: 255 - red, b: 90 },
        noise: { type: "gaussian", mean: 128, sigma: 50 },
      },
    })
      .png()
      .toBuffer();
  const gif = await sharp(await Promise.all([10, 120, 240].map(frame)), { join: { animated: true } })
    .gif({ delay: [100, 100, 100] })
    .toBuffer();
  const last = gifFrameData(gif).at(-1);
  if (!last) throw new Error("the GIF has no frame");
  let subBlock = last.start;
  while (gif[subBlock] !== 0) {
    const length = gif[subBlock] ?? 0;
    gif.fill(0xff, subBlock + 1, subBlock + 1 + length);
    subBlock += length + 1;
  }
  return gif;
}

/** The most pixels an upload may carry in a small file: 10000×9999 RGBA of one colour, about 400 KB as PNG. */
export function worstCasePng(): Promise<Buffer> {
  return sharp({
    create: { width: 10_000, height: 9_999, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 0.5 } },
  })
    .png({ compressionLevel: 9 })
    .toBuffer();
}
