// Bytes no image or attachment record points to. An upload stores its bytes first and records ImageUploaded
// after; a crash (or a failed append) in between leaves bytes without a record. The command API sweeps them when
// it starts and every hour after: a blob older than the grace period whose image stream holds no ImageUploaded is
// removed. The event store is asked, not the read models, so a record not projected yet still protects its bytes.
// Attachments' bytes (`<attachmentId>.attachment`) are swept the same way, against AttachmentUploaded. Then the
// store removes its own leftovers past the same grace: bytes of no blob at all (BlobStore.removeLeftovers).
import type { Logger } from "pino";
import { attachmentIdOfBlob } from "../attachments/attachment-blobs.ts";
import { attachmentStream } from "../attachments/attachment.decider.ts";
import { StreamDeletedError, type EventStore } from "../event-store/event-store.port.ts";
import { imageIdOfBlob } from "../images/image-blobs.ts";
import { imageStream } from "../images/image.decider.ts";
import type { BlobStore } from "./blob-store.port.ts";

/** Longer than any upload takes between storing its bytes and recording them. */
const ORPHAN_GRACE_MS = 60 * 60 * 1000;
const ORPHAN_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

async function sweepOrphanBlobs(
  ports: { blobs: BlobStore; eventStore: EventStore },
  now: Date,
): Promise<{ removed: number; kept: number; leftovers: number }> {
  let removed = 0;
  let kept = 0;
  for await (const { key, storedAt } of ports.blobs.list()) {
    const imageId = imageIdOfBlob(key);
    const attachmentId = attachmentIdOfBlob(key);
    const owner =
      imageId !== null
        ? { stream: imageStream(imageId), recorded: "ImageUploaded" }
        : attachmentId !== null
          ? { stream: attachmentStream(attachmentId), recorded: "AttachmentUploaded" }
          : null;
    if (owner === null || now.getTime() - storedAt.getTime() < ORPHAN_GRACE_MS) continue;
    // A stream deleted for good holds no upload any more: its blob is an orphan like any other.
    const { events } = await ports.eventStore.read(owner.stream).catch((error: unknown) => {
      if (error instanceof StreamDeletedError) return { events: [] };
      throw error;
    });
    if (events.some((event) => event.type === owner.recorded)) {
      kept += 1;
    } else {
      await ports.blobs.delete(key);
      removed += 1;
    }
  }
  const leftovers = await ports.blobs.removeLeftovers(new Date(now.getTime() - ORPHAN_GRACE_MS));
  return { removed, kept, leftovers };
}

/** Sweeps now and then every ORPHAN_SWEEP_INTERVAL_MS until stopped; a failed sweep is logged and retried next time. */
export function startOrphanBlobSweep(ports: {
  blobs: BlobStore;
  eventStore: EventStore;
  logger: Logger;
  clock: () => Date;
}): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = sweepOrphanBlobs(ports, ports.clock()).then(
      ({ removed, kept, leftovers }) => {
        if (removed > 0 || leftovers > 0)
          ports.logger.info({ event: "images.orphans_removed", removed, kept, leftovers });
      },
      (error: unknown) => ports.logger.warn({ event: "images.orphan_sweep_failed", err: error }),
    );
  };
  sweep();
  const timer = setInterval(sweep, ORPHAN_SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
