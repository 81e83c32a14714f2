// GET /exports/obsidian: the pages a caller can view below a folder (or their whole workspace) as an Obsidian
// vault. Two passes over the read models, each in batches with a turn of the event loop between them: the first
// lists the pages (ids, titles, places: a few hundred bytes each) and gives every folder and page a file name;
// the second reads the pages' contents in batches bounded by count and bytes, has the worker pool find their
// links, writes the images they show and their files, linked or not (each once, under attachments/), has the
// pool write and deflate their notes, adds those to the zip as the reader takes them, and lets go of the batch. Only the listing and the names of images already written are held
// beyond a batch. No markdown is parsed, and nothing compressed, on the event loop. Reads the read models and the
// blob reader only.
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { effectivePermission } from "../../../shared/access/effective-permission.ts";
import type { AccessContext } from "../../../shared/access/access-context.ts";
import { attachmentBlobKey } from "../../../shared/attachments/attachment-blobs.ts";
import type { AttachmentRecord } from "../../../shared/attachments/attachments.view.ts";
import { blobKeySchema, type BlobReader } from "../../../shared/blobs/blob-store.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { DirectoryNames } from "../../../shared/exports/vault-file-names.ts";
import { mentionsAsText } from "../../../shared/mentions/mentions.ts";
import type { FoundLink } from "../../../shared/exports/vault-links.ts";
import type { ImageMimeType } from "../../../shared/images/image.decider.ts";
import type { ListKey, VisibleTo } from "../../../shared/read-store/list-query.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import type { DeflatedEntry } from "../../../shared/workers/pool-tasks.ts";
import type { WorkerPool } from "../../../shared/workers/worker-pool.ts";
import { eachOrAlone } from "./pooled-batch.ts";
import type { ZipStream } from "./zip-stream.ts";

/** Rows read per listing query. */
const LIST_PAGE = 500;
/** Pages whose contents are read, parsed and written as one batch: at most this many, */
const NOTE_BATCH = 64;
/** and no more once their markdown reaches this many characters. */
const NOTE_BATCH_CHARACTERS = 4_000_000;
/** Where images and attached files go, at the vault's root. */
const ATTACHMENTS = "attachments";
/** A page's attachments are listed this many at a time. */
const ATTACHMENT_PAGE = 100;

const EXTENSIONS: Record<ImageMimeType, readonly string[]> = {
  "image/png": [".png"],
  "image/jpeg": [".jpg", ".jpeg"],
  "image/gif": [".gif"],
  "image/webp": [".webp"],
};

interface ListedPage {
  readonly id: string;
  readonly title: string;
  readonly icon: string | null;
  /** The folder the page sits in, or null at the vault's root. */
  readonly folderId: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A folder of the vault: its name and the folder it sits in (null at the vault's root). */
interface ListedFolder {
  readonly id: string;
  readonly name: string;
  readonly parentId: string | null;
  readonly depth: number;
  readonly createdAt: string;
}

interface ReadNote {
  readonly note: PlannedNote;
  readonly markdown: string;
}

interface PlannedNote {
  readonly id: string;
  /** Vault path without `.md`. */
  readonly path: string;
  /** The title, when the file name does not say it. */
  readonly title: string | null;
  readonly icon: string | null;
  readonly updatedAt: string;
}

export interface ExportScope {
  readonly context: AccessContext;
  /** The folder exported (its contents are the vault's root), or null for the caller's own workspace. */
  readonly folderId: string | null;
  readonly origin: string;
}

export class ObsidianExport {
  private readonly notes: PlannedNote[] = [];
  private readonly pathOf = new Map<string, string>();
  /** Image id to its vault path, or null when it is not exported (not visible, or missing). */
  private readonly images = new Map<string, string | null>();
  /** Attachment id to its vault path, or null when it is not exported. */
  private readonly attachments = new Map<string, string | null>();
  /** An image's or attachment's bytes (by SHA-256) are written once, whichever pages show them. */
  private readonly written = new Map<string, string>();
  private readonly attachmentNames = new DirectoryNames();

  private constructor(
    private readonly views: ReadModels,
    private readonly blobs: BlobReader,
    private readonly pool: WorkerPool,
    private readonly scope: ExportScope,
  ) {}

  /** The first pass: every page listed and named. A folder the caller cannot view is 404, as an unknown one. */
  static async plan(
    ports: { views: ReadModels; blobs: BlobReader; pool: WorkerPool },
    scope: ExportScope,
  ): Promise<ObsidianExport> {
    const planned = new ObsidianExport(ports.views, ports.blobs, ports.pool, scope);
    await planned.listPages();
    return planned;
  }

  get noteCount(): number {
    return this.notes.length;
  }

  private async listPages(): Promise<void> {
    const { context, folderId } = this.scope;
    if (folderId !== null) {
      const folder = await this.views.folders.get(folderId);
      if (!folder || !effectivePermission(context, { kind: "folder", ...folder }))
        throw new AppError("not_found", "folder not found");
    }
    const visibleTo: VisibleTo =
      folderId === null
        ? { ownerIds: [context.userId], pageIds: [], folderIds: [] }
        : { ownerIds: [], pageIds: [], folderIds: [folderId] };
    const listed: ListedPage[] = [];
    const folders = new Map<string, ListedFolder | null>();
    for (let before: ListKey | null = null; ;) {
      const rows = await this.views.pages.list({ visibleTo, before, limit: LIST_PAGE, parentId: null });
      for (const page of rows.slice(0, LIST_PAGE)) {
        if (!effectivePermission(context, { kind: "page", ...page })) continue;
        // Below the exported folder: the page's nearest folders up to it (nearest first); in the workspace: all.
        const depth = folderId === null ? page.ancestorIds.length : page.ancestorIds.indexOf(folderId);
        if (depth < 0) continue;
        const inVault = page.ancestorIds.slice(0, depth);
        for (const [index, id] of inVault.entries())
          if (!folders.has(id)) folders.set(id, await this.folderOf(id, inVault[index + 1] ?? null, depth - index));
        listed.push({
          id: page.id,
          title: page.title,
          icon: page.icon,
          folderId: inVault[0] ?? null,
          createdAt: page.createdAt,
          updatedAt: page.updatedAt,
        });
      }
      const last = rows.at(Math.min(rows.length, LIST_PAGE) - 1);
      if (rows.length <= LIST_PAGE || !last) break;
      before = { position: last.updatedPosition, id: last.id };
      await yieldToLoop();
    }
    const directoryOf = this.directories([...folders.values()].flatMap((folder) => (folder ? [folder] : [])));
    // Names are handed out oldest page first, so a page keeps its name when newer pages of the same title come.
    listed.sort(
      (a, b) =>
        a.createdAt.localeCompare(b.createdAt) ||
        (a.title < b.title ? -1 : a.title > b.title ? 1 : 0) ||
        a.id.localeCompare(b.id),
    );
    const names = new Map<string, DirectoryNames>();
    for (const page of listed) {
      const directory = page.folderId === null ? "" : (directoryOf.get(page.folderId) ?? "");
      const inDirectory = names.get(directory) ?? new DirectoryNames();
      names.set(directory, inDirectory);
      const name = inDirectory.claim(page.title, ".md");
      const path = directory === "" ? name : `${directory}/${name}`;
      this.notes.push({
        id: page.id,
        path,
        title: name === page.title ? null : page.title,
        icon: page.icon,
        updatedAt: page.updatedAt,
      });
      this.pathOf.set(page.id, path);
    }
    this.notes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  private async folderOf(id: string, parentId: string | null, depth: number): Promise<ListedFolder | null> {
    const folder = await this.views.folders.get(id);
    return folder ? { id, name: folder.name, parentId, depth, createdAt: folder.createdAt } : null;
  }

  /**
   * Each folder's directory in the vault. Two folders of one name in one place stay two directories (`Plans`,
   * `Plans (2)`), as notes do: names are handed out within each directory, oldest folder first, so a folder
   * keeps its name when a newer one of the same name comes.
   */
  private directories(folders: readonly ListedFolder[]): Map<string, string> {
    const ordered = [...folders].sort(
      (a, b) =>
        a.depth - b.depth ||
        a.createdAt.localeCompare(b.createdAt) ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
        a.id.localeCompare(b.id),
    );
    const directoryOf = new Map<string, string>();
    const names = new Map<string, DirectoryNames>();
    for (const folder of ordered) {
      const parent = folder.parentId === null ? "" : (directoryOf.get(folder.parentId) ?? "");
      const inParent = names.get(parent) ?? new DirectoryNames();
      names.set(parent, inParent);
      const name = inParent.claim(folder.name, "");
      directoryOf.set(folder.id, parent === "" ? name : `${parent}/${name}`);
    }
    return directoryOf;
  }

  /** The second pass: the notes in batches, each note after the images it shows, into the zip. */
  async write(zip: ZipStream): Promise<void> {
    for (let next = 0; next < this.notes.length;) {
      const batch: ReadNote[] = [];
      for (
        let characters = 0;
        next < this.notes.length && batch.length < NOTE_BATCH && characters < NOTE_BATCH_CHARACTERS;
      ) {
        const note = this.notes[next++];
        const content = note ? await this.views.pages.getContent(note.id) : null;
        if (!note || !content) continue; // deleted since the listing
        // A vault has no accounts: a mention is written as its text (`@Ann`), without its link.
        batch.push({ note, markdown: mentionsAsText(content.markdown) });
        characters += content.markdown.length;
      }
      await this.writeBatch(zip, batch);
      await yieldToLoop();
    }
    zip.end();
  }

  private async writeBatch(zip: ZipStream, batch: readonly ReadNote[]): Promise<void> {
    // Parsing is most of an export's work: a page that names no page or image of this service skips it.
    const parsed = batch.filter(({ markdown }) => markdown.includes("/api/v1/"));
    const found = await eachOrAlone(
      parsed,
      async (notes) =>
        (await this.pool.run("findVaultLinks", { markdowns: notes.map(({ markdown }) => markdown) })).links,
    );
    const linksOf = new Map<ReadNote, FoundLink[] | null>(parsed.map((note, index) => [note, found[index] ?? null]));
    const written = batch.map((read) => ({ read, links: linksOf.has(read) ? (linksOf.get(read) ?? null) : [] }));
    for (const { links } of written) {
      for (const link of links ?? []) {
        if (link.kind === "attachment") await this.exportAttachment(zip, link.id);
        else if (link.kind !== "page") await this.exportImage(zip, link.id);
      }
    }
    // Files attached to a page but linked from no note still go in: the archive holds every file of the pages.
    for (const read of batch) await this.exportUnlinkedAttachments(zip, read.note.id);
    // A note too complex to parse within the pool's limits is written as it is: its links stay as they are.
    const writable = written.flatMap(({ read, links }) => (links === null ? [] : [{ read, links }]));
    const entries = await eachOrAlone(
      writable,
      async (notes) =>
        (await this.pool.run("vaultEntries", { notes: notes.map(({ read, links }) => this.noteTask(read, links)) }))
          .entries,
    );
    const entryOf = new Map<ReadNote, DeflatedEntry | null>(
      writable.map(({ read }, index) => [read, entries[index] ?? null]),
    );
    for (const read of batch) {
      const modifiedAt = new Date(read.note.updatedAt);
      const entry = entryOf.get(read);
      if (entry) await zip.addDeflated(`${read.note.path}.md`, entry, modifiedAt);
      else await zip.addStored(`${read.note.path}.md`, Buffer.from(read.markdown, "utf8"), modifiedAt);
    }
  }

  private noteTask(read: ReadNote, links: readonly FoundLink[]) {
    const pages: Record<string, string | null> = {};
    const images: Record<string, string | null> = {};
    const attachments: Record<string, string | null> = {};
    for (const link of links) {
      if (link.kind === "page") pages[link.id] = this.pathOf.get(link.id) ?? null;
      else if (link.kind === "attachment") attachments[link.id] = this.attachments.get(link.id) ?? null;
      else images[link.id] = this.images.get(link.id) ?? null;
    }
    return {
      markdown: read.markdown,
      links: [...links],
      pages,
      images,
      attachments,
      origin: this.scope.origin,
      title: read.note.title,
      icon: read.note.icon,
    };
  }

  private async exportImage(zip: ZipStream, imageId: string): Promise<void> {
    if (this.images.has(imageId)) return;
    const image = await this.views.images.get(imageId);
    const page = image ? await this.views.pages.get(image.pageId) : null;
    if (!image || !page || !effectivePermission(this.scope.context, { kind: "page", ...page })) {
      this.images.set(imageId, null);
      return;
    }
    const held = this.written.get(image.sha256);
    if (held !== undefined) {
      this.images.set(imageId, held);
      return;
    }
    const blob = await this.blobs.open(blobKeySchema.parse(image.filename));
    if (!blob) {
      this.images.set(imageId, null);
      return;
    }
    const extensions = EXTENSIONS[image.mimeType];
    const dot = image.originalName.lastIndexOf(".");
    const ownExtension = dot > 0 ? image.originalName.slice(dot).toLowerCase() : "";
    const extension = extensions.includes(ownExtension) ? image.originalName.slice(dot) : (extensions[0] ?? ".png");
    const stem = extensions.includes(ownExtension) ? image.originalName.slice(0, dot) : image.originalName;
    const name = `${this.attachmentNames.claim(stem, extension.toLowerCase())}${extension}`;
    const path = `${ATTACHMENTS}/${name}`;
    await zip.addStream(path, blob.stream, new Date(image.createdAt));
    this.written.set(image.sha256, path);
    this.images.set(imageId, path);
  }

  /**
   * The page's live attachments its markdown does not link, under attachments/ beside the rest (a vault ties a
   * file to a note only by a link, so importing the archive reports them as linked by no note).
   */
  private async exportUnlinkedAttachments(zip: ZipStream, pageId: string): Promise<void> {
    for (let before: ListKey | null = null; ;) {
      const rows = await this.views.attachments.list({ pageId, before, limit: ATTACHMENT_PAGE });
      // Listed from the exported page itself, which the caller can view: written as they are, not looked up again.
      for (const attachment of rows.slice(0, ATTACHMENT_PAGE))
        if (!this.attachments.has(attachment.id)) await this.writeAttachment(zip, attachment);
      const last = rows[ATTACHMENT_PAGE - 1];
      if (rows.length <= ATTACHMENT_PAGE || !last) return;
      before = { position: last.position, id: last.id };
      await yieldToLoop();
    }
  }

  /** A live attachment of a page the caller can view, written once under attachments/ by its own name. */
  private async exportAttachment(zip: ZipStream, attachmentId: string): Promise<void> {
    if (this.attachments.has(attachmentId)) return;
    const attachment = await this.views.attachments.get(attachmentId);
    const page = attachment && attachment.deletedAt === null ? await this.views.pages.get(attachment.pageId) : null;
    if (!attachment || !page || !effectivePermission(this.scope.context, { kind: "page", ...page })) {
      this.attachments.set(attachmentId, null);
      return;
    }
    await this.writeAttachment(zip, attachment);
  }

  /** A live attachment the caller may view: its bytes once under attachments/, or the path they went to before. */
  private async writeAttachment(zip: ZipStream, attachment: AttachmentRecord): Promise<void> {
    const attachmentId = attachment.id;
    const held = this.written.get(attachment.sha256);
    if (held !== undefined) {
      this.attachments.set(attachmentId, held);
      return;
    }
    const blob = await this.blobs.open(blobKeySchema.parse(attachmentBlobKey(attachment.id)));
    if (!blob) {
      this.attachments.set(attachmentId, null);
      return;
    }
    const extension = /\.[A-Za-z0-9]{1,12}$/.exec(attachment.filename)?.[0] ?? "";
    const stem = attachment.filename.slice(0, attachment.filename.length - extension.length);
    const path = `${ATTACHMENTS}/${this.attachmentNames.claim(stem, extension.toLowerCase())}${extension}`;
    await zip.addStream(path, blob.stream, new Date(attachment.createdAt));
    this.written.set(attachment.sha256, path);
    this.attachments.set(attachmentId, path);
  }
}
