// What an uploaded file is, decided from its bytes alone (never its name or declared type): sharp reads the
// header for the format and decodes every pixel, so a truncated or corrupt image is refused like a non-image.
import sharp from "sharp";
import { AppError } from "../errors/app-error.ts";
import type { ImageMimeType } from "./image.decider.ts";

/** Pixels decoded at most: a 10 MB file can claim dimensions that would take gigabytes to decode. */
export const MAX_IMAGE_PIXELS = 100_000_000;

const accepted: Record<string, { mimeType: ImageMimeType; extension: string }> = {
  jpeg: { mimeType: "image/jpeg", extension: "jpg" },
  png: { mimeType: "image/png", extension: "png" },
  gif: { mimeType: "image/gif", extension: "gif" },
  webp: { mimeType: "image/webp", extension: "webp" },
};

export interface InspectedImage {
  readonly mimeType: ImageMimeType;
  readonly extension: string;
  readonly width: number;
  readonly height: number;
}

const unsupported = (why: string): AppError => new AppError("unsupported_media_type", `file: ${why}; send a JPEG, PNG, GIF or WebP image`);

export async function inspectImage(bytes: Uint8Array): Promise<InspectedImage> {
  if (bytes.length === 0) throw unsupported("the file is empty");
  const image = sharp(bytes, { failOn: "truncated", limitInputPixels: MAX_IMAGE_PIXELS });
  let format: string | undefined;
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ format, width, height } = await image.metadata());
  } catch {
    throw unsupported("not an image of an accepted type");
  }
  const kind = format === undefined ? undefined : accepted[format];
  if (!kind) throw unsupported(`${format ?? "unknown"} images are not accepted`);
  if (!width || !height) throw unsupported("the image has no size");
  try {
    // Decodes every pixel (stats reads them all): a cut-off or damaged image fails here.
    await image.stats();
  } catch (error) {
    const tooLarge = error instanceof Error && /pixel limit/i.test(error.message);
    throw unsupported(tooLarge ? `the image has more than ${MAX_IMAGE_PIXELS.toLocaleString("en")} pixels` : "the image is truncated or corrupt");
  }
  return { ...kind, width, height };
}
