// An uploaded image: recorded once, after its bytes are stored, on stream image-<id>. The record names the
// blob that holds the bytes and the page it belongs to; reading it back needs view permission on that page.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { imageIdSchema, pageIdSchema, userIdSchema } from "../kernel/ids.ts";

export const imageMimeTypeSchema = z.enum(["image/jpeg", "image/png", "image/gif", "image/webp"]);
export type ImageMimeType = z.infer<typeof imageMimeTypeSchema>;

const uploadedImage = z.object({
  imageId: imageIdSchema,
  pageId: pageIdSchema,
  uploaderId: userIdSchema,
  /** Generated: `<imageId>.<extension>`, also the blob's key. */
  filename: z.string(),
  originalName: z.string(),
  mimeType: imageMimeTypeSchema,
  size: z.number().int().nonnegative(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  alt: z.string(),
  /** SHA-256 of the bytes, hex: the strong ETag they are served with. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type UploadedImage = z.infer<typeof uploadedImage>;

export const imageEventSchemas = [z.object({ type: z.literal("ImageUploaded"), data: uploadedImage })] as const;
export type ImageEvent = z.infer<(typeof imageEventSchemas)[number]>;

export type ImageCommand = { type: "RecordImageUpload"; image: UploadedImage };
export type ImageState = { exists: false } | { exists: true; image: UploadedImage };

export const imageStream = (imageId: string): string => `image-${imageId}`;

export const imageDecider: Decider<ImageCommand, ImageState, ImageEvent> = {
  initialState: { exists: false },
  decide(command, state) {
    if (state.exists) throw new AppError("conflict", "image already recorded");
    return [{ type: "ImageUploaded", data: command.image }];
  },
  evolve(_state, event) {
    return { exists: true, image: event.data };
  },
};
