// A copy of a page: the same markdown and icon as the page is now, a new stream of its own (its history starts
// with the copy, which names the source), no comments. The images its markdown shows are copied to the new page
// (new ids, bytes copied, references rewritten), since an image is read with its page's permission: the copy's
// readers can see them without any access to the source. Its attachments are copied the same way
// (shared/attachments/copy-attachments.ts).
import { randomUUID } from "node:crypto";
import { attachmentsToCopy, copyAttachments } from "../attachments/copy-attachments.ts";
import { ownerOfNewItem, visiblePage } from "../access/authorize.ts";
import { blobKeySchema, type BlobStore } from "../blobs/blob-store.port.ts";
import type { Actor } from "../commands/guarded-command.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { AppError } from "../errors/app-error.ts";
import { imageCommands } from "../images/image.commands.ts";
import { imageBlobKey } from "../images/image-blobs.ts";
import {
  folderIdSchema,
  imageIdSchema,
  pageIdSchema,
  userIdSchema,
  type FolderId,
  type ImageId,
  type PageId,
} from "../kernel/ids.ts";
import { effectivePermission } from "../access/effective-permission.ts";
import { pageCommands } from "./page.commands.ts";
import type { ImageRecord } from "../images/images.view.ts";
import type { Quotas } from "../quotas/quotas.ts";

/** How image references look in markdown the service writes (`![alt](/api/v1/images/{id})`), with or without a host. */
const IMAGE_REFERENCE =
  /\/api\/v1\/images\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})/g;

/** Each copy reads and writes up to 10 MB of bytes: a page showing more images than this is refused. */
const DUPLICATE_MAX_IMAGES = 100;
const TITLE_MAX_CHARS = 200;
const COPY_SUFFIX = " (copy)";

export interface Duplication {
  readonly sourceId: PageId;
  readonly title: string | undefined;
  /** Absent: where the caller sees the source; null: the root. */
  readonly parentId: FolderId | null | undefined;
}

const copyTitle = (title: string): string =>
  `${title.slice(0, TITLE_MAX_CHARS - COPY_SUFFIX.length).trimEnd()}${COPY_SUFFIX}`;

async function readAll(blobs: BlobStore, key: string): Promise<Buffer | null> {
  const blob = await blobs.open(blobKeySchema.parse(key));
  if (!blob) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of blob.stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}

/** The images `markdown` shows that the caller may view (those of the source page, or of any other page they can see). */
async function imagesToCopy(ports: WritePorts, actor: Actor, markdown: string): Promise<ImageRecord[]> {
  const referenced = new Set([...markdown.matchAll(IMAGE_REFERENCE)].map((match) => (match[1] ?? "").toLowerCase()));
  if (referenced.size > DUPLICATE_MAX_IMAGES)
    throw new AppError("conflict", `the page shows more than ${DUPLICATE_MAX_IMAGES} images; it cannot be duplicated`);
  const context = await ports.views.access.contextFor(actor.principal.user.id);
  const copied: ImageRecord[] = [];
  for (const imageId of referenced) {
    const image = await ports.views.images.get(imageId);
    const page = image ? await ports.views.pages.get(image.pageId) : null;
    if (image && page && effectivePermission(context, { kind: "page", ...page })) copied.push(image);
  }
  return copied;
}

/** Each image copied to `pageId` under a new id: bytes first, record second, as an upload does. Returns old id → new id. */
async function copyImages(
  ports: WritePorts & { blobs: BlobStore },
  actor: Actor,
  images: readonly ImageRecord[],
  pageId: PageId,
): Promise<Map<string, ImageId>> {
  const copies = new Map<string, ImageId>();
  for (const image of images) {
    const bytes = await readAll(ports.blobs, image.filename);
    if (!bytes) continue;
    const copyId = imageIdSchema.parse(randomUUID());
    const filename = imageBlobKey(copyId, image.filename.split(".").at(-1) ?? "");
    await ports.blobs.put(blobKeySchema.parse(filename), bytes);
    const {
      id: _id,
      pageId: _page,
      uploaderId: _uploader,
      filename: _filename,
      createdAt: _createdAt,
      ...kept
    } = image;
    const copy = { ...kept, imageId: copyId, pageId, uploaderId: userIdSchema.parse(actor.context.actorId), filename };
    await imageCommands.handle(ports.eventStore, copyId, { type: "RecordImageUpload", image: copy }, actor.context);
    copies.set(image.id, copyId);
  }
  return copies;
}

/**
 * The copy, with its images' and attachments' bytes counted against the quota of the workspace it is made in (`blobBytes`), held
 * until `settle` (the answer, once the read models show the copy) is done.
 */
export async function duplicatePage<T>(
  ports: WritePorts & { blobs: BlobStore; quotas: Pick<Quotas, "blobBytes"> },
  actor: Actor,
  duplication: Duplication,
  settle: (made: { pageId: PageId; position: number | null }) => Promise<T>,
): Promise<T> {
  const { shown } = await visiblePage(ports.views, actor.principal, duplication.sourceId);
  const source = await pageCommands.load(ports.eventStore, duplication.sourceId);
  if (source.status !== "live") throw new AppError("not_found", "page not found");
  const parentId =
    duplication.parentId === undefined ? folderIdSchema.nullable().parse(shown.parentId) : duplication.parentId;
  const ownerId = await ownerOfNewItem(ports.views, actor.principal, parentId);
  const images = await imagesToCopy(ports, actor, source.markdown);
  const files = await attachmentsToCopy(ports.views, duplication.sourceId);
  const bytes = [...images, ...files].reduce((total, file) => total + file.size, 0);
  return ports.quotas.blobBytes.withReserved(ownerId, bytes, async () => {
    const pageId = pageIdSchema.parse(randomUUID());
    const copies = await copyImages(ports, actor, images, pageId);
    const attachments = await copyAttachments(ports, actor, files, pageId);
    const markdown = attachments.rewrite(source.markdown).replace(IMAGE_REFERENCE, (reference: string, id: string) => {
      const copy = copies.get(id.toLowerCase());
      return copy === undefined ? reference : `/api/v1/images/${copy}`;
    });
    const title = duplication.title ?? copyTitle(source.title);
    const command = {
      type: "CreatePage" as const,
      pageId,
      ownerId,
      parentId,
      title,
      icon: source.icon,
      markdown,
      duplicatedFrom: duplication.sourceId,
    };
    const created = await pageCommands.handle(ports.eventStore, pageId, command, actor.context);
    // The answer waits for the attachments too: the copy is shown with them.
    const recorded = await attachments.record();
    return settle({ pageId, position: recorded ?? created.position });
  });
}
