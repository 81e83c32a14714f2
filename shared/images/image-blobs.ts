// Where an image's bytes live in the blob store: one blob per image, named by its id and the extension of its
// type, so the orphan sweep (shared/blobs/orphan-blobs.ts) tells an image's blob from any other.
const IMAGE_BLOB = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(jpg|png|gif|webp)$/;

export const imageBlobKey = (imageId: string, extension: string): string => `${imageId}.${extension}`;

/** The image id a blob key names, or null for any other blob. */
export function imageIdOfBlob(key: string): string | null {
  return IMAGE_BLOB.exec(key)?.[1] ?? null;
}
