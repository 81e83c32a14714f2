// Purging the trash: items deleted longer ago than the retention period are purged (PagePurged, FolderPurged),
// which takes them out of the trash for good and erases their content (purge-item.ts). The command API sweeps when it starts and every hour after, so
// an item stays restorable for the retention period and at most one sweep interval longer. A purged page's
// attachments lose their bytes as well (images keep theirs: they may be shown elsewhere by URL).
import type { Logger } from "pino";
import type { BlobStore } from "../blobs/blob-store.port.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import type { KeyStore } from "../erasure/key-store.port.ts";
import { userIdSchema } from "../kernel/ids.ts";
import type { ReadModelCopies } from "../erasure/read-model-copies.port.ts";
import type { SentMail } from "../mail/sent-mail.port.ts";
import { eraseCopiesOf, purgeDeleted, type PurgePorts } from "./purge-item.ts";
import { purgeBefore } from "./trash.ts";

const TRASH_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Items purged per sweep: a backlog longer than this is worked through over the next sweeps. */
const PURGE_PER_SWEEP = 1_000;

/** Purges (and so erases) every item past the retention period; returns how many it purged. */
async function purgeExpiredTrash(
  ports: PurgePorts & { blobs: BlobStore },
  now: Date,
  retentionDays: number,
): Promise<number> {
  const purged: string[] = [];
  for (const item of await ports.views.trash.expired(purgeBefore(now, retentionDays), PURGE_PER_SWEEP)) {
    // Recorded as the one who deleted it: the purge follows from that deletion.
    const context = {
      actorId: userIdSchema.parse(item.deletedBy),
      correlationId: `trash-purge-${now.toISOString()}`,
      now,
    };
    // Deciding on the item's stream makes a purge already recorded (a sweep racing another) record nothing.
    const { position } = await purgeDeleted(ports, item, context);
    if (position !== null) purged.push(item.id);
  }
  // Once a sweep: each audit copy and the kept mail are read once for all the items it purged.
  await eraseCopiesOf(ports, purged);
  return purged.length;
}

export function startTrashPurge(
  ports: WritePorts & {
    blobs: BlobStore;
    logger: Logger;
    clock: () => Date;
    trashRetentionDays: number;
    erasure: { keys: Pick<KeyStore, "destroy">; readModelCopies: ReadModelCopies | null; sentMail: SentMail | null };
  },
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = purgeExpiredTrash({ ...ports, ...ports.erasure }, ports.clock(), ports.trashRetentionDays).then(
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
