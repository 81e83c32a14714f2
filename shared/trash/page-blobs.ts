// A purged page's files lose their bytes: the purge lists its images' and attachments' blobs (deleted
// attachments too) before it records PagePurged, whose projection takes their records away, and removes the
// bytes once it is recorded. Each image and attachment has bytes of its own (a duplicate copies them), so no
// other page loses anything.
import { blobKeySchema, type BlobStore } from "../blobs/blob-store.port.ts";
import { attachmentBlobKey } from "../attachments/attachment-blobs.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";

const LISTED_PER_READ = 500;

/** Reads every record of a page through `read`, in bounded batches keyed by id. */
async function allOf<T extends { readonly id: string }>(
  read: (afterId: string | null, limit: number) => Promise<T[]>,
): Promise<T[]> {
  const all: T[] = [];
  let after: string | null = null;
  for (;;) {
    const batch = await read(after, LISTED_PER_READ);
    all.push(...batch);
    const last = batch.at(-1);
    if (batch.length < LISTED_PER_READ || !last) return all;
    after = last.id;
  }
}

/** The blob keys of every image and attachment the page ever had. */
export async function blobKeysOfPage(
  views: Pick<ReadModels, "attachments" | "images">,
  pageId: string,
): Promise<string[]> {
  const attachments = await allOf((after, limit) => views.attachments.allOfPage(pageId, after, limit));
  const images = await allOf((after, limit) => views.images.allOfPage(pageId, after, limit));
  return [
    ...attachments.map((attachment) => attachmentBlobKey(attachment.id)),
    ...images.map((image) => image.filename),
  ];
}

export async function removeBlobs(blobs: BlobStore, keys: readonly string[]): Promise<void> {
  for (const key of keys) await blobs.delete(blobKeySchema.parse(key));
}
