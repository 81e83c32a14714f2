// GET /exports/obsidian: the pages a caller can view below a folder (or their whole workspace) as an Obsidian
// vault. Two passes over the read models, each in cursor pages: the first lists the pages (ids, titles, places:
// a few hundred bytes each) and gives every one a file name; the second reads one page's content at a time,
// writes its note and the images it shows into the zip, and lets go of it. Only the listing and the names of
// images already written are held, never the contents. Reads the read models and the blob reader only.
import { effectivePermission, type AccessContext } from "../../../shared/access/effective-permission.ts";
import { blobKeySchema, type BlobReader } from "../../../shared/blobs/blob-store.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { DirectoryNames, safeFileName } from "../../../shared/exports/vault-file-names.ts";
import { withVaultFrontmatter } from "../../../shared/exports/vault-frontmatter.ts";
import { findLinks, toVaultMarkdown } from "../../../shared/exports/vault-links.ts";
import type { ImageMimeType } from "../../../shared/images/image.decider.ts";
import type { ListKey, VisibleTo } from "../../../shared/read-store/list-query.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import type { ZipStream } from "./zip-stream.ts";

/** Rows read per listing query. */
const LIST_PAGE = 500;
/** Where images go, at the vault's root. */
export const ATTACHMENTS = "attachments";

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
  /** The directory in the vault, each folder's name made safe: `Projects/2026`, or `` at the root. */
  readonly directory: string;
  readonly createdAt: string;
  readonly updatedAt: string;
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
  /** An image's bytes (by SHA-256) are written once, whichever pages show them. */
  private readonly written = new Map<string, string>();
  private readonly attachmentNames = new DirectoryNames();

  private constructor(
    private readonly views: ReadModels,
    private readonly blobs: BlobReader,
    private readonly scope: ExportScope,
  ) {}

  /** The first pass: every page listed and named. A folder the caller cannot view is 404, as an unknown one. */
  static async plan(views: ReadModels, blobs: BlobReader, scope: ExportScope): Promise<ObsidianExport> {
    const planned = new ObsidianExport(views, blobs, scope);
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
      if (!folder || !effectivePermission(context, { kind: "folder", ...folder })) throw new AppError("not_found", "folder not found");
    }
    const visibleTo: VisibleTo = folderId === null ? { ownerIds: [context.userId], pageIds: [], folderIds: [] } : { ownerIds: [], pageIds: [], folderIds: [folderId] };
    const listed: ListedPage[] = [];
    for (let before: ListKey | null = null; ; ) {
      const rows = await this.views.pages.list({ visibleTo, before, limit: LIST_PAGE, parentId: null });
      for (const page of rows.slice(0, LIST_PAGE)) {
        if (!effectivePermission(context, { kind: "page", ...page })) continue;
        // Below the exported folder: the page's nearest folders up to it; in the workspace: its whole path.
        const depth = folderId === null ? page.ancestorIds.length : page.ancestorIds.indexOf(folderId);
        if (depth < 0) continue;
        const segments = page.folderPath === "" ? [] : page.folderPath.split("/");
        const directory = segments.slice(segments.length - depth).map(safeFileName).join("/");
        listed.push({ id: page.id, title: page.title, icon: page.icon, directory, createdAt: page.createdAt, updatedAt: page.updatedAt });
      }
      const last = rows.at(Math.min(rows.length, LIST_PAGE) - 1);
      if (rows.length <= LIST_PAGE || !last) break;
      before = { position: last.updatedPosition, id: last.id };
    }
    // Names are handed out oldest page first, so a page keeps its name when newer pages of the same title come.
    listed.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0) || a.id.localeCompare(b.id));
    const directories = new Map<string, DirectoryNames>();
    for (const page of listed) {
      const key = page.directory.toLowerCase();
      const names = directories.get(key) ?? new DirectoryNames();
      directories.set(key, names);
      const name = names.claim(page.title, ".md");
      const path = page.directory === "" ? name : `${page.directory}/${name}`;
      this.notes.push({ id: page.id, path, title: name === page.title ? null : page.title, icon: page.icon, updatedAt: page.updatedAt });
      this.pathOf.set(page.id, path);
    }
    this.notes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** The second pass: each note, and the images it shows before it, into the zip. */
  async write(zip: ZipStream, onNote: () => void = () => undefined): Promise<void> {
    for (const note of this.notes) {
      const content = await this.views.pages.getContent(note.id);
      if (!content) continue; // deleted since the listing
      const links = findLinks(content.markdown);
      for (const link of links) if (link.kind !== "page") await this.exportImage(zip, link.id);
      const markdown = toVaultMarkdown(content.markdown, links, {
        page: (id) => this.pathOf.get(id) ?? null,
        image: (id) => this.images.get(id) ?? null,
        origin: this.scope.origin,
      });
      await zip.addText(`${note.path}.md`, withVaultFrontmatter(markdown, { title: note.title, icon: note.icon }), new Date(note.updatedAt));
      onNote();
    }
    zip.end();
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
}
