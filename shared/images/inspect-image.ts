// What an uploaded file is, decided from its bytes alone (never its name or declared type): sharp reads the
// header for the format and decodes every pixel of every frame, so a truncated or corrupt image is refused like a
// non-image. Decodes go through a DecodeGate, and each streams through the decoder without holding the bitmap.
import sharp from "sharp";
import { AppError } from "../errors/app-error.ts";
import { DecodeGate, type DecodeLimits, type WhenBusy } from "./decode-gate.ts";
import type { ImageMimeType } from "./image.decider.ts";

/** Pixels decoded at most, over all frames: a 10 MB file can claim dimensions that would take gigabytes to decode. */
const MAX_IMAGE_PIXELS = 100_000_000;

// Every upload is different, so libvips's operation cache would only keep decoder buffers alive; and one thread
// per decode (sharp's default on glibc, not on musl), so the gate's count is the number of cores decodes take.
sharp.cache(false);
sharp.concurrency(1);

const accepted: Record<string, { mimeType: ImageMimeType; extension: string }> = {
  jpeg: { mimeType: "image/jpeg", extension: "jpg" },
  png: { mimeType: "image/png", extension: "png" },
  gif: { mimeType: "image/gif", extension: "gif" },
  webp: { mimeType: "image/webp", extension: "webp" },
};

export interface InspectedImage {
  readonly mimeType: ImageMimeType;
  readonly extension: string;
  /** Of one frame (the first) of an animated image. */
  readonly width: number;
  readonly height: number;
}

const unsupported = (why: string): AppError =>
  new AppError("unsupported_media_type", `file: ${why}; send a JPEG, PNG, GIF or WebP image`);

export class ImageInspector {
  private readonly gate: DecodeGate;

  constructor(limits: DecodeLimits) {
    this.gate = new DecodeGate(limits);
  }

  /** `whenBusy`: an upload is refused with 503 when the queue is full; an import waits its turn. */
  inspect(bytes: Uint8Array, whenBusy: WhenBusy): Promise<InspectedImage> {
    if (bytes.length === 0) return Promise.reject(unsupported("the file is empty"));
    return this.gate.run(() => inspect(bytes), whenBusy);
  }
}

async function inspect(bytes: Uint8Array): Promise<InspectedImage> {
  let format: string | undefined;
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ format, width, height } = await sharp(bytes, {
      failOn: "truncated",
      limitInputPixels: MAX_IMAGE_PIXELS,
    }).metadata());
  } catch {
    throw unsupported("not an image of an accepted type");
  }
  const kind = format === undefined ? undefined : accepted[format];
  if (!kind) throw unsupported(`${format ?? "unknown"} images are not accepted`);
  if (!width || !height) throw unsupported("the image has no size");
  try {
    // A box shrink to one pixel averages every pixel of every frame (`pages: -1`), so each one is decoded, row by
    // row in one sequential pass: memory stays at a few rows, not the bitmap (400 MB for 100 megapixels of RGBA).
    // Shrink-on-load is off, or JPEG and WebP would be decoded at a smaller scale.
    await sharp(bytes, { failOn: "truncated", limitInputPixels: MAX_IMAGE_PIXELS, pages: -1, sequentialRead: true })
      .resize(1, 1, { fit: "fill", fastShrinkOnLoad: false })
      .raw()
      .toBuffer();
  } catch (error) {
    const tooLarge = error instanceof Error && /pixel limit/i.test(error.message);
    throw unsupported(
      tooLarge
        ? `the image has more than ${MAX_IMAGE_PIXELS.toLocaleString("en")} pixels`
        : "the image is truncated or corrupt",
    );
  }
  return { ...kind, width, height };
}
