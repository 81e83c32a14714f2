// A purged page's attachments lose their bytes: the purge lists them (deleted ones too) before it records
// PagePurged, whose projection takes their records away, and removes the bytes once it is recorded.
import { blobKeySchema, type BlobStore } from "../blobs/blob-store.port.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { attachmentBlobKey } from "./attachment-blobs.ts";

const LISTED_PER_READ = 500;

/** The blob keys of every attachment the page ever had, read in bounded batches. */
export async function attachmentKeysOfPage(views: Pick<ReadModels, "attachments">, pageId: string): Promise<string[]> {
  const keys: string[] = [];
  let after: string | null = null;
  for (;;) {
    const batch = await views.attachments.allOfPage(pageId, after, LISTED_PER_READ);
    for (const attachment of batch) keys.push(attachmentBlobKey(attachment.id));
    const last = batch.at(-1);
    if (batch.length < LISTED_PER_READ || !last) return keys;
    after = last.id;
  }
}

export async function removeBlobs(blobs: BlobStore, keys: readonly string[]): Promise<void> {
  for (const key of keys) await blobs.delete(blobKeySchema.parse(key));
}
