// Purging one deleted page or folder, which erases its content: the item's key (`page:<id>`, `folder:<id>`) is
// destroyed, so what its events sealed (title, icon, markdown, comments, names) reads as erased in the log, its
// replays and its backups, and the purge is recorded (PagePurged, FolderPurged), on which the projector takes it
// out of every read model. The key goes first: an erasure cut short after it leaves the item in the trash, where
// purging it again completes it. Used by the owner's purge from the trash, the retention sweep, an account's
// erasure and `npm run erase -- --page | --folder`.
import type { Actor } from "../commands/guarded-command.ts";
import type { CommandContext } from "../commands/command-context.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { blobKeysOfPage, removeBlobs } from "./page-blobs.ts";
import type { BlobStore } from "../blobs/blob-store.port.ts";
import { subjects, type KeyStore } from "../erasure/key-store.port.ts";
import type { ReadModelCopies } from "../erasure/read-model-copies.port.ts";
import type { SentMail } from "../mail/sent-mail.port.ts";
import { AppError } from "../errors/app-error.ts";
import { folderCommands } from "../folders/folder.commands.ts";
import { folderIdSchema, pageIdSchema } from "../kernel/ids.ts";
import { pageCommands } from "../pages/page.commands.ts";
import { trashPermission } from "./trash.ts";
import type { TrashItem, TrashType } from "./trash.view.ts";

export interface PurgePorts extends WritePorts {
  readonly keys: Pick<KeyStore, "destroy">;
  /** Where a page's images' and attachments' bytes are removed from; absent where the caller has no blob store at hand. */
  readonly blobs?: BlobStore | null;
  /** The audit copies of the read models, deleted when they mention a purged item; null where there are none. */
  readonly readModelCopies: ReadModelCopies | null;
  /** Kept copies of sent mail (the embedded outbox), deleted when they name a purged item; absent or null where none. */
  readonly sentMail?: SentMail | null;
}

/**
 * Deletes what outlives the log's erasure of purged items: the audit copies of the read models and the kept mail
 * (a notification's mail names its page's id in its link, and its title) that mention any of them.
 */
export async function eraseCopiesOf(ports: PurgePorts, purgedIds: readonly string[]): Promise<void> {
  if (purgedIds.length === 0) return;
  await ports.readModelCopies?.eraseMentioning(purgedIds);
  await ports.sentMail?.eraseNaming(purgedIds);
}

export interface Purged {
  /** Whether the item was in the trash (or purged already) in the log, and so is erased now. */
  readonly erased: boolean;
  /** The purge's position, or null when it was purged already (or not deleted). */
  readonly position: number | null;
}

/** Erases a deleted (or already purged) page; a live or unknown page is left as it is. */
export async function purgeDeletedPage(ports: PurgePorts, id: string, context: CommandContext): Promise<Purged> {
  const pageId = pageIdSchema.parse(id);
  const state = await pageCommands.load(ports.eventStore, pageId);
  if (state.status !== "deleted" && state.status !== "purged") return { erased: false, position: null };
  // Listed before the purge is recorded: its projection takes the records that name the bytes.
  const blobKeys = ports.blobs ? await blobKeysOfPage(ports.views, pageId) : [];
  await ports.keys.destroy(subjects.page(pageId));
  const { position } = await pageCommands.handle(ports.eventStore, pageId, { type: "PurgePage", pageId }, context);
  if (ports.blobs) await removeBlobs(ports.blobs, blobKeys);
  return { erased: true, position };
}

/** Erases a deleted (or already purged) folder's own name and icon; what it took along is purged item by item. */
export async function purgeDeletedFolder(ports: PurgePorts, id: string, context: CommandContext): Promise<Purged> {
  const folderId = folderIdSchema.parse(id);
  const state = await folderCommands.load(ports.eventStore, folderId);
  if (state.status !== "deleted" && state.status !== "purged") return { erased: false, position: null };
  await ports.keys.destroy(subjects.folder(folderId));
  const { position } = await folderCommands.handle(
    ports.eventStore,
    folderId,
    { type: "PurgeFolder", folderId },
    context,
  );
  return { erased: true, position };
}

export function purgeDeleted(
  ports: PurgePorts,
  item: Pick<TrashItem, "type" | "id">,
  context: CommandContext,
): Promise<Purged> {
  return item.type === "page" ? purgeDeletedPage(ports, item.id, context) : purgeDeletedFolder(ports, item.id, context);
}

/**
 * A deleted folder and what its deletion took along below it (pages first, then folders deepest first, the
 * folder last), so an interruption leaves the folder in the trash, where purging it again finishes the rest.
 * A folder taken along by another's deletion takes what lies below it in that deletion.
 */
export async function purgeFolderTree(
  ports: PurgePorts,
  folderId: string,
  context: CommandContext,
): Promise<{ position: number | null; purged: string[] }> {
  let position: number | null = null;
  const top = (await ports.views.trash.get("folder", folderId))?.deletedWith ?? folderId;
  const taken = (await ports.views.trash.deletedWith(top)).filter(
    (item) => top === folderId || item.ancestorIds.includes(folderId),
  );
  const folders = taken
    .filter((item) => item.type === "folder")
    .sort((a, b) => b.ancestorIds.length - a.ancestorIds.length);
  const items = [
    ...taken.filter((item) => item.type === "page"),
    ...folders,
    { type: "folder" as const, id: folderId },
  ];
  for (const item of items) position = (await purgeDeleted(ports, item, context)).position ?? position;
  return { position, purged: items.map((item) => item.id) };
}

/**
 * DELETE /trash/{type}/{id}: its owner purges an item from the trash at once (a folder with what it took
 * along). An item the caller cannot see answers 404 as an id never deleted, and so does one that went with a
 * folder (purge the folder); anyone but the owner who may see it, 403.
 */
export async function purgeFromTrash(
  ports: PurgePorts,
  actor: Actor,
  type: TrashType,
  id: string,
): Promise<{ position: number | null }> {
  const item = await ports.views.trash.get(type, id);
  if (!item || item.deletedWith !== null) throw new AppError("not_found", `${type} not found in the trash`);
  if (item.ownerId !== actor.principal.user.id) {
    if ((await trashPermission(ports.views, actor.principal, item)) === null)
      throw new AppError("not_found", `${type} not found in the trash`);
    throw new AppError("forbidden", `only its owner may purge a ${type} from the trash`);
  }
  const { position, purged } =
    type === "folder"
      ? await purgeFolderTree(ports, item.id, actor.context)
      : { position: (await purgeDeletedPage(ports, item.id, actor.context)).position, purged: [item.id] };
  await eraseCopiesOf(ports, purged);
  return { position };
}
