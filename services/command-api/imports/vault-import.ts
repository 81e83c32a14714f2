// One vault import: its notes and images become folders, pages and uploaded images at the import's target (the
// owner's root, or a folder), and its other files attachments, with wikilinks and embeds rewritten to what was
// imported. Ids derive from the target and each file's path (shared/imports/import-ids.ts), so importing the
// same vault into the same place again finds what it made before: a page is updated where it now is (a move by
// the user stands), an attachment's bytes replaced, an image whose bytes changed uploaded anew; what the user
// deleted since (a page or folder in the trash or purged, a deleted attachment) stays deleted and is reported.
// An image or file linked by several notes is stored once, with the first note linking it. What fails for one
// file (its content, a rule the page or folder fields refuse) is reported in `errors` and the rest goes on; what
// fails in the stores ends the request, and a retry finds what was written and writes only the rest. Notes are
// parsed and rewritten in a worker thread (shared/imports/note-rewriter.ts) and the loop is yielded between
// files, so a large import, or one note the parser finds hard, does not hold other requests back.
import { createHash } from "node:crypto";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { z } from "zod";
import { pageAccess } from "../../../shared/access/authorize.ts";
import { attachmentBlobKey } from "../../../shared/attachments/attachment-blobs.ts";
import { attachmentCommands } from "../../../shared/attachments/attachment.commands.ts";
import type { AttachmentState } from "../../../shared/attachments/attachment.decider.ts";
import { fileTypeOf, SNIFF_BYTES } from "../../../shared/attachments/file-type.ts";
import { blobKeySchema } from "../../../shared/blobs/blob-store.port.ts";
import type { Actor } from "../../../shared/commands/guarded-command.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { folderCommands } from "../../../shared/folders/folder.commands.ts";
import { imageCommands } from "../../../shared/images/image.commands.ts";
import type { InspectedImage } from "../../../shared/images/inspect-image.ts";
import { imageBlobKey } from "../../../shared/images/image-blobs.ts";
import { derivedId, type ImportScopes } from "../../../shared/imports/import-ids.ts";
import type { NoteRewriteSession } from "../../../shared/imports/note-rewriter.ts";
import { importedAttachmentId, importedImageId, importedPageId } from "../../../shared/imports/vault-resolver.ts";
import {
  sortVault,
  type VaultAttachment,
  type VaultFile,
  type VaultImage,
  type VaultNote,
} from "../../../shared/imports/vault-files.ts";
import { planFolders } from "../../../shared/imports/vault-folders.ts";
import {
  attachmentIdSchema,
  type AttachmentId,
  folderIdSchema,
  imageIdSchema,
  pageIdSchema,
  type FolderId,
  type ImageId,
  type PageId,
  type UserId,
} from "../../../shared/kernel/ids.ts";
import { pageCommands } from "../../../shared/pages/page.commands.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import type { ImportResult } from "./import-result.ts";
import { folderNameField } from "../../../shared/folders/folder.fields.ts";
import { iconField } from "../../../shared/kernel/text-fields.ts";
import { MARKDOWN_MAX_CHARS, titleField } from "../../../shared/pages/page.fields.ts";
import { foldersAtTarget } from "./folders-at-target.ts";
import type { ImportTarget } from "./import-target.ts";

const PROGRESS_EVERY = 100;

interface CheckedImage {
  readonly image: VaultImage;
  readonly inspected: InspectedImage;
  readonly sha256: string;
}

/** A linked file's new bytes, stored under its attachment's id, waiting for its page to exist to be recorded. */
interface StoredAttachment {
  readonly attachmentId: AttachmentId;
  /** The page it is recorded on: the first note linking it, or the page it was attached to before. */
  readonly pageId: PageId;
  readonly replaces: boolean;
  readonly name: string;
  readonly mimeType: string;
  readonly size: number;
  readonly sha256: string;
}

/** What bounds one import's writes, besides the owner's quota. */
export interface ImportLimits {
  /** Bytes of notes and images read, and of linked files written (each once), in all. */
  readonly maxWrittenBytes: number;
}

interface NoteContext {
  readonly folders: Map<string, FolderId>;
  /** Directories whose folder from an earlier import the user deleted since, with why their notes are skipped. */
  readonly unavailable: Map<string, string>;
  readonly images: Map<string, CheckedImage>;
  readonly attachments: Map<string, VaultAttachment>;
  readonly rewriter: NoteRewriteSession;
  /** The images and files some note links. */
  readonly linked: Set<string>;
  /** The images and files stored (or found stored) already: each is stored once, with the first note linking it. */
  readonly settled: Set<string>;
}

/** POST /folders's rule for a name, as the reason it refuses one. */
function folderNameProblem(name: string): string | null {
  const parsed = folderNameField.safeParse(name);
  return parsed.success ? null : parsed.error.issues.map((issue) => issue.message).join("; ");
}

/** A file's read failing (a damaged zip entry) is that file's fault, reported as its own, not the request's. */
const unreadable = (file: VaultAttachment, error: unknown): AppError =>
  error instanceof AppError
    ? error
    : new AppError("validation_failed", `${JSON.stringify(file.path)} could not be read`);

/** The SHA-256 of a file's bytes, read without storing them: whether an earlier import stored the same. */
async function sha256Of(file: VaultAttachment): Promise<string> {
  const hash = createHash("sha256");
  try {
    for await (const chunk of await file.source.open()) hash.update(chunk);
  } catch (error) {
    throw unreadable(file, error);
  }
  return hash.digest("hex");
}

export class VaultImport {
  private readonly result: ImportResult = {
    foldersCreated: 0,
    pagesCreated: 0,
    imagesUploaded: 0,
    attachmentsUploaded: 0,
    backlinksCreated: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    errors: [],
  };
  private position: number | null = null;
  /** Bytes read and written so far, against ImportLimits.maxWrittenBytes. */
  private written = 0;
  private readonly owner: UserId;
  /** What derived ids are made from: one of the scopes, chosen when the import runs. */
  private scope: string;

  constructor(
    private readonly ports: CommandApiPorts,
    private readonly actor: Actor,
    private readonly target: ImportTarget,
    /** From the target (shared/imports/import-ids.ts), and the Idempotency-Key's earlier scopes. */
    private readonly scopes: ImportScopes,
    private readonly limits: ImportLimits,
  ) {
    this.owner = target.ownerId;
    this.scope = scopes.vault;
  }

  /**
   * An earlier scope when the first attempt of this Idempotency-Key derived its ids from it: what it made first
   * (the first folder, or the first note's page) exists under that scope's id.
   */
  private async chooseScope(directories: readonly string[], notes: readonly VaultNote[]): Promise<string> {
    const [directory] = directories;
    const [note] = notes;
    for (const scope of this.scopes.earlier) {
      if (
        directory !== undefined &&
        (await folderCommands.load(this.ports.eventStore, folderIdSchema.parse(derivedId(scope, "folder", directory))))
          .status !== "absent"
      )
        return scope;
      if (
        note !== undefined &&
        (await pageCommands.load(this.ports.eventStore, pageIdSchema.parse(importedPageId(scope, note.path))))
          .status !== "absent"
      )
        return scope;
    }
    return this.scopes.vault;
  }

  private record(position: number | null): void {
    if (position !== null) this.position = Math.max(this.position ?? 0, position);
  }

  async run(files: readonly VaultFile[]): Promise<{ result: ImportResult; position: number | null }> {
    const vault = sortVault(files);
    const tree = planFolders(vault.notes, folderNameProblem);
    this.result.errors.push(...vault.errors, ...tree.errors);
    this.scope = await this.chooseScope(tree.directories, tree.notes);
    const log = this.ports.logger;
    const correlationId = this.actor.context.correlationId;
    log.info({
      event: "import.started",
      correlationId,
      notes: tree.notes.length,
      images: vault.images.length,
      folders: tree.directories.length,
    });

    const images = await this.checkImages(vault.images);
    const attachments = this.checkAttachments(vault.attachments);
    this.written =
      tree.notes.reduce((total, note) => total + Buffer.byteLength(note.markdown), 0) +
      [...images.values()].reduce((total, checked) => total + checked.image.bytes.length, 0);
    // What the import may store counts against the workspace's blob quota before anything is made: each image and
    // file once, but not those an earlier import stored already (a vault imported again), and a vault that does
    // not fit is refused whole (409 quota_exceeded). Each is stored once, however many notes link it.
    const release = await this.ports.quotas.blobBytes.reserve(this.owner, await this.bytesToStore(images, attachments));
    try {
      const { folders, unavailable } = await this.createFolders(tree.directories);
      const imageDigests = [...images.values()].map((checked) => ({
        path: checked.image.path,
        sha256: checked.sha256,
      }));
      const rewriter = this.ports.notes.session({
        scope: this.scope,
        notePaths: tree.notes.map((note) => note.path),
        images: imageDigests,
        attachmentPaths: [...attachments.keys()],
      });
      const context: NoteContext = {
        folders,
        unavailable,
        images,
        attachments,
        rewriter,
        linked: new Set<string>(),
        settled: new Set<string>(),
      };
      try {
        for (const [index, note] of tree.notes.entries()) {
          await yieldToLoop();
          await this.importNote(note, context);
          if ((index + 1) % PROGRESS_EVERY === 0)
            log.info({ event: "import.progress", correlationId, notes: index + 1, of: tree.notes.length });
        }
      } finally {
        rewriter.close();
      }
      for (const path of images.keys())
        if (!context.linked.has(path))
          this.result.errors.push(`${JSON.stringify(path)}: skipped: no imported note embeds this image`);
      for (const path of attachments.keys())
        if (!context.linked.has(path))
          this.result.errors.push(`${JSON.stringify(path)}: skipped: no imported note links this file`);
    } finally {
      release();
    }
    log.info({ event: "import.finished", correlationId, ...this.result, errors: this.result.errors.length });
    return { result: this.result, position: this.position };
  }

  /** Bytes of the images not uploaded yet, and of the files not attached yet or attached with another size. */
  private async bytesToStore(
    images: ReadonlyMap<string, CheckedImage>,
    attachments: ReadonlyMap<string, VaultAttachment>,
  ): Promise<number> {
    let total = 0;
    for (const checked of images.values()) {
      if (!(await imageCommands.load(this.ports.eventStore, this.imageIdFor(checked))).exists)
        total += checked.image.bytes.length;
    }
    for (const file of attachments.values()) {
      const state = await attachmentCommands.load(this.ports.eventStore, this.attachmentIdFor(file.path));
      if (state.status === "absent" || (state.status === "live" && state.attachment.size !== file.source.size))
        total += file.source.size;
    }
    return total;
  }

  /** Runs one file's writes: a refusal of the domain's (an AppError) is that file's, anything else the request's. */
  private async reported(label: string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.result.errors.push(`${label}: skipped: ${error.message}`);
    }
  }

  private async createFolders(
    directories: readonly string[],
  ): Promise<{ folders: Map<string, FolderId>; unavailable: Map<string, string> }> {
    const byPath = await foldersAtTarget(this.ports.views.folders, this.target);
    const unavailable = new Map<string, string>();
    for (const directory of directories) {
      await yieldToLoop();
      const key = directory.toLowerCase();
      const slash = directory.lastIndexOf("/");
      const parentKey = slash === -1 ? null : directory.slice(0, slash).toLowerCase();
      const parentProblem = parentKey === null ? undefined : unavailable.get(parentKey);
      if (parentProblem !== undefined) {
        unavailable.set(key, parentProblem);
        continue;
      }
      if (byPath.has(key)) {
        this.result.unchanged += 1;
        continue;
      }
      const parentId = parentKey === null ? (this.target.folder?.id ?? null) : (byPath.get(parentKey) ?? null);
      const folderId = folderIdSchema.parse(derivedId(this.scope, "folder", directory));
      const state = await folderCommands.load(this.ports.eventStore, folderId);
      if (state.status === "deleted" || state.status === "purged") {
        unavailable.set(
          key,
          `its folder ${JSON.stringify(directory)} from an earlier import was deleted since; restore it from the trash to import into it again`,
        );
        continue;
      }
      byPath.set(key, folderId);
      if (state.status === "live") {
        // Made by an earlier import and moved or renamed by the user since: its notes go where it now is.
        this.result.unchanged += 1;
        continue;
      }
      const command = {
        type: "CreateFolder" as const,
        folderId,
        ownerId: this.owner,
        parentId,
        name: directory.slice(slash + 1),
        icon: null,
      };
      const { position } = await folderCommands.handle(this.ports.eventStore, folderId, command, this.actor.context);
      this.record(position);
      this.result.foldersCreated += 1;
      this.result.created += 1;
    }
    return { folders: byPath, unavailable };
  }

  private async checkImages(images: readonly VaultImage[]): Promise<Map<string, CheckedImage>> {
    const checked = new Map<string, CheckedImage>();
    for (const image of images) {
      await yieldToLoop();
      try {
        const inspected = await this.ports.images.inspect(image.bytes, "wait");
        checked.set(image.path, { image, inspected, sha256: createHash("sha256").update(image.bytes).digest("hex") });
      } catch (error) {
        const why = error instanceof AppError ? error.message.replace(/^file: /, "") : "it could not be read";
        this.result.errors.push(`${JSON.stringify(image.path)}: skipped: ${why}`);
      }
    }
    return checked;
  }

  /** Files over ATTACHMENT_MAX_BYTES are reported and left out, as an upload of them would be refused. */
  private checkAttachments(attachments: readonly VaultAttachment[]): Map<string, VaultAttachment> {
    const checked = new Map<string, VaultAttachment>();
    for (const attachment of attachments) {
      if (attachment.source.size > this.ports.attachmentMaxBytes) {
        this.result.errors.push(
          `${JSON.stringify(attachment.path)}: skipped: larger than ${this.ports.attachmentMaxBytes} bytes (ATTACHMENT_MAX_BYTES)`,
        );
      } else {
        checked.set(attachment.path, attachment);
      }
    }
    return checked;
  }

  private imageIdFor(checked: CheckedImage): ImageId {
    return imageIdSchema.parse(importedImageId(this.scope, checked.image.path, checked.sha256));
  }

  private attachmentIdFor(filePath: string): AttachmentId {
    return attachmentIdSchema.parse(importedAttachmentId(this.scope, filePath));
  }

  private async importNote(note: VaultNote, context: NoteContext): Promise<void> {
    const label = JSON.stringify(note.path);
    const folderProblem = context.unavailable.get(note.directory.toLowerCase());
    if (folderProblem !== undefined) {
      this.result.errors.push(`${label}: skipped: ${folderProblem}`);
      return;
    }
    const pageId = pageIdSchema.parse(importedPageId(this.scope, note.path));
    const page = await pageCommands.load(this.ports.eventStore, pageId);
    if (page.status === "deleted") {
      this.result.errors.push(
        `${label}: skipped: its page from an earlier import is in the trash; restore it to import the note into it again`,
      );
      return;
    }
    if (page.status === "purged") {
      this.result.errors.push(
        `${label}: skipped: its page from an earlier import was deleted for good; import the vault into another folder to have it again`,
      );
      return;
    }
    const outcome = await context.rewriter.rewrite({
      path: note.path,
      directory: note.directory,
      markdown: note.markdown,
    });
    if (outcome.kind === "unreadable") {
      this.result.errors.push(`${label}: skipped: it could not be read as markdown`);
      return;
    }
    if (outcome.kind === "too_complex") {
      this.result.errors.push(
        `${label}: skipped: too complex to read (its markdown took longer to parse than an import allows one note)`,
      );
      return;
    }
    if (outcome.kind === "too_large") {
      this.result.errors.push(
        `${label}: skipped: too large to read (parsing its markdown needed more memory than an import allows one note)`,
      );
      return;
    }
    const rewritten = outcome.note;
    // Receiving a large note from the worker takes the loop a while: other requests go first.
    await yieldToLoop();
    if (rewritten.markdown.length > MARKDOWN_MAX_CHARS) {
      this.result.errors.push(
        `${label}: skipped: with its links rewritten it is ${rewritten.markdown.length} characters; a page holds at most ${MARKDOWN_MAX_CHARS}`,
      );
      return;
    }
    for (const problem of rewritten.problems) this.result.errors.push(`${label}: ${problem}`);
    const title =
      this.field(titleField, rewritten.title, label, "title") ??
      this.field(titleField, note.name.slice(0, 200), label, "file name") ??
      "Untitled";
    const icon = this.field(iconField, rewritten.icon, label, "icon");

    await this.reported(label, async () => {
      // An existing page is changed only by a caller who may edit it where it now is.
      if (page.status === "live") await pageAccess("edit")(this.ports.views, this.actor.principal, pageId);
      for (const path of [...rewritten.images, ...rewritten.attachments]) context.linked.add(path);
      for (const imagePath of rewritten.images) {
        const checked = context.images.get(imagePath);
        if (!checked || context.settled.has(imagePath)) continue;
        await this.uploadImage(checked, pageId);
        context.settled.add(imagePath);
      }
      // Bytes first, records after the page exists, so the page's history starts with its creation.
      const stored: StoredAttachment[] = [];
      for (const path of rewritten.attachments) {
        const file = context.attachments.get(path);
        if (!file || context.settled.has(path)) continue;
        const attachment = await this.storeAttachment(file, pageId);
        if (attachment !== null) stored.push(attachment);
        context.settled.add(path);
      }
      if (page.status === "absent") {
        const parentId =
          note.directory === ""
            ? (this.target.folder?.id ?? null)
            : (context.folders.get(note.directory.toLowerCase()) ?? null);
        const command = {
          type: "CreatePage" as const,
          pageId,
          ownerId: this.owner,
          parentId,
          title,
          icon,
          markdown: rewritten.markdown,
        };
        const { position } = await pageCommands.handle(this.ports.eventStore, pageId, command, this.actor.context);
        this.record(position);
        this.result.pagesCreated += 1;
        this.result.created += 1;
        this.result.backlinksCreated += rewritten.backlinks;
      } else if (page.title === title && page.icon === icon && page.markdown === rewritten.markdown) {
        this.result.unchanged += 1;
      } else {
        // The vault's version wins; the page's history keeps what it replaces.
        const renamed = await pageCommands.handle(
          this.ports.eventStore,
          pageId,
          { type: "UpdatePage", pageId, title, icon },
          this.actor.context,
        );
        this.record(renamed.position);
        const content = await pageCommands.handle(
          this.ports.eventStore,
          pageId,
          {
            type: "ReplaceContent",
            pageId,
            markdown: rewritten.markdown,
            ifMatchRevision: renamed.state.status === "live" ? renamed.state.revision : page.revision,
          },
          this.actor.context,
        );
        this.record(content.position);
        this.result.updated += 1;
      }
      for (const attachment of stored) await this.recordAttachment(attachment);
    });
  }

  /** A frontmatter or file-name value as a page field, or null (reported) when the field's rules refuse it. */
  private field(schema: z.ZodType<string, string>, value: string | null, label: string, what: string): string | null {
    if (value === null) return null;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    this.result.errors.push(
      `${label}: its ${what} was not used: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`,
    );
    return null;
  }

  /**
   * Stores a linked file's bytes under its attachment's id unless an earlier import attached the same bytes
   * (unchanged: null) or the user deleted that attachment since (reported: null). Counts them against the
   * import's limit before writing.
   */
  private async storeAttachment(file: VaultAttachment, pageId: PageId): Promise<StoredAttachment | null> {
    const attachmentId = this.attachmentIdFor(file.path);
    const state: AttachmentState = await attachmentCommands.load(this.ports.eventStore, attachmentId);
    if (state.status === "deleted") {
      this.result.errors.push(
        `${JSON.stringify(file.path)}: skipped: its attachment from an earlier import was deleted since`,
      );
      return null;
    }
    if (state.status === "live") {
      if (state.attachment.size === file.source.size && state.attachment.sha256 === (await sha256Of(file))) {
        this.result.unchanged += 1;
        return null;
      }
      await pageAccess("edit")(this.ports.views, this.actor.principal, state.attachment.pageId);
    }
    if (this.written + file.source.size > this.limits.maxWrittenBytes) {
      throw new AppError(
        "payload_too_large",
        `${JSON.stringify(file.path)} would take what this import reads and writes past ${this.limits.maxWrittenBytes} bytes`,
      );
    }
    this.written += file.source.size;
    const name = file.path.slice(file.path.lastIndexOf("/") + 1);
    const hash = createHash("sha256");
    let head = Buffer.alloc(0);
    const measured = async function* () {
      try {
        for await (const chunk of await file.source.open()) {
          hash.update(chunk);
          if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
          yield chunk;
        }
      } catch (error) {
        throw unreadable(file, error);
      }
    };
    const size = await this.ports.blobs.putStream(blobKeySchema.parse(attachmentBlobKey(attachmentId)), measured());
    const attachedTo = state.status === "live" ? state.attachment.pageId : pageId;
    return {
      attachmentId,
      pageId: attachedTo,
      replaces: state.status === "live",
      size,
      sha256: hash.digest("hex"),
      mimeType: fileTypeOf(head, name),
      name,
    };
  }

  /** Records an attachment whose bytes are stored, or the new bytes of one recorded before. */
  private async recordAttachment(stored: StoredAttachment): Promise<void> {
    const { attachmentId, pageId, name, mimeType, size, sha256 } = stored;
    const attachment = {
      attachmentId,
      pageId,
      uploaderId: this.actor.context.actorId,
      filename: name,
      originalName: name,
      mimeType,
      size,
      sha256,
    };
    const command = stored.replaces
      ? { type: "RecordAttachmentReplacement" as const, attachment }
      : { type: "RecordAttachmentUpload" as const, attachment };
    const { position } = await attachmentCommands.handle(
      this.ports.eventStore,
      attachmentId,
      command,
      this.actor.context,
    );
    this.record(position);
    if (stored.replaces) {
      this.result.updated += 1;
    } else {
      this.result.attachmentsUploaded += 1;
      this.result.created += 1;
    }
  }

  /** Uploads an image with the first note embedding it, unless an earlier import uploaded the same bytes. */
  private async uploadImage(checked: CheckedImage, pageId: PageId): Promise<void> {
    const imageId = this.imageIdFor(checked);
    if ((await imageCommands.load(this.ports.eventStore, imageId)).exists) {
      this.result.unchanged += 1;
      return;
    }
    const filename = imageBlobKey(imageId, checked.inspected.extension);
    await this.ports.blobs.put(blobKeySchema.parse(filename), checked.image.bytes);
    const image = {
      imageId,
      pageId,
      uploaderId: this.actor.context.actorId,
      filename,
      originalName: checked.image.path.slice(checked.image.path.lastIndexOf("/") + 1),
      mimeType: checked.inspected.mimeType,
      size: checked.image.bytes.length,
      width: checked.inspected.width,
      height: checked.inspected.height,
      alt: "",
      sha256: checked.sha256,
    };
    const { position } = await imageCommands.handle(
      this.ports.eventStore,
      imageId,
      { type: "RecordImageUpload", image },
      this.actor.context,
    );
    this.record(position);
    this.result.imagesUploaded += 1;
    this.result.created += 1;
  }
}
