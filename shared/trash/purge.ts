// Purging the trash: items deleted longer ago than the retention period are purged (PagePurged, FolderPurged),
// which takes them out of the trash for good. The command API sweeps when it starts and every hour after, so
// an item stays restorable for the retention period and at most one sweep interval longer. A purged page's
// attachments lose their bytes as well (images keep theirs: they may be shown elsewhere by URL).
import type { Logger } from "pino";
import { attachmentKeysOfPage, removeBlobs } from "../attachments/attachment-purge.ts";
import type { BlobStore } from "../blobs/blob-store.port.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { folderCommands } from "../folders/folder.commands.ts";
import { folderIdSchema, pageIdSchema, userIdSchema } from "../kernel/ids.ts";
import { pageCommands } from "../pages/page.commands.ts";
import { purgeBefore } from "./trash.ts";

export const TRASH_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Items purged per sweep: a backlog longer than this is worked through over the next sweeps. */
export const PURGE_PER_SWEEP = 1_000;

/** Purges every item past the retention period; returns how many it purged. */
export async function purgeExpiredTrash(ports: WritePorts & { blobs: BlobStore }, now: Date, retentionDays: number): Promise<number> {
  let purged = 0;
  for (const item of await ports.views.trash.expired(purgeBefore(now, retentionDays), PURGE_PER_SWEEP)) {
    // Recorded as the one who deleted it: the purge follows from that deletion.
    const context = { actorId: userIdSchema.parse(item.deletedBy), correlationId: `trash-purge-${now.toISOString()}`, now };
    // Deciding on the item's stream makes a purge already recorded (a sweep racing another) record nothing.
    // Listed before the purge is recorded: its projection takes the records that name the bytes.
    const attachmentKeys = item.type === "page" ? await attachmentKeysOfPage(ports.views, item.id) : [];
    const { position } =
      item.type === "page"
        ? await pageCommands.handle(ports.eventStore, pageIdSchema.parse(item.id), { type: "PurgePage", pageId: pageIdSchema.parse(item.id) }, context)
        : await folderCommands.handle(ports.eventStore, folderIdSchema.parse(item.id), { type: "PurgeFolder", folderId: folderIdSchema.parse(item.id) }, context);
    await removeBlobs(ports.blobs, attachmentKeys);
    if (position !== null) purged += 1;
  }
  return purged;
}

export function startTrashPurge(ports: WritePorts & { blobs: BlobStore; logger: Logger; clock: () => Date; trashRetentionDays: number }): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = purgeExpiredTrash(ports, ports.clock(), ports.trashRetentionDays).then(
      (purged) => {
        if (purged > 0) ports.logger.info({ event: "trash.purged", purged });
      },
      (error: unknown) => ports.logger.warn({ event: "trash.purge_failed", err: error }),
    );
  };
  sweep();
  const timer = setInterval(sweep, TRASH_SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
