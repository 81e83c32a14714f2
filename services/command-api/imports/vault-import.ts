// One vault import: its notes and images become folders, pages and uploaded images under the caller's root, and
// its other files attachments of the notes that link them, with wikilinks and embeds rewritten to what was
// imported. What fails for one file (its content, a rule the page or folder fields refuse) is reported in
// `errors` and the rest goes on; what fails in the stores ends the request, and since every id derives from the
// import's scope and a file's path, a retry with the same Idempotency-Key finds what was written and writes
// only the rest. Notes are parsed and rewritten in a worker thread (shared/imports/note-rewriter.ts) and the
// loop is yielded between files, so a large import, or one note the parser finds hard, does not hold other
// requests back.
import { createHash } from "node:crypto";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { z } from "zod";
import { attachmentBlobKey } from "../../../shared/attachments/attachment-blobs.ts";
import { attachmentCommands } from "../../../shared/attachments/attachment.commands.ts";
import { fileTypeOf, SNIFF_BYTES } from "../../../shared/attachments/file-type.ts";
import { blobKeySchema } from "../../../shared/blobs/blob-store.port.ts";
import type { Actor } from "../../../shared/commands/guarded-command.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { folderCommands } from "../../../shared/folders/folder.commands.ts";
import { imageCommands } from "../../../shared/images/image.commands.ts";
import type { InspectedImage } from "../../../shared/images/inspect-image.ts";
import { imageBlobKey } from "../../../shared/images/orphan-blobs.ts";
import { derivedId, type ImportScopes } from "../../../shared/imports/import-ids.ts";
import type { NoteRewriteSession } from "../../../shared/imports/note-rewriter.ts";
import { importedAttachmentId, importedImageId, importedPageId } from "../../../shared/imports/vault-resolver.ts";
import { sortVault, type VaultAttachment, type VaultFile, type VaultImage, type VaultNote } from "../../../shared/imports/vault-files.ts";
import { planFolders } from "../../../shared/imports/vault-folders.ts";
import { attachmentIdSchema, type AttachmentId, folderIdSchema, imageIdSchema, pageIdSchema, userIdSchema, type FolderId, type ImageId, type PageId, type UserId } from "../../../shared/kernel/ids.ts";
import { pageCommands } from "../../../shared/pages/page.commands.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import type { ImportResult } from "./import-result.ts";
import { folderNameField } from "../../../shared/folders/folder.fields.ts";
import { iconField } from "../../../shared/kernel/text-fields.ts";
import { MARKDOWN_MAX_CHARS, titleField } from "../../../shared/pages/page.fields.ts";
import { ownFoldersByPath } from "./own-folders.ts";

const PROGRESS_EVERY = 100;

interface CheckedImage {
  readonly image: VaultImage;
  readonly inspected: InspectedImage;
  readonly sha256: string;
}

/** A linked file's bytes, stored under its attachment's id, waiting for the page to exist to be recorded. */
interface StoredAttachment {
  readonly file: VaultAttachment;
  readonly attachmentId: AttachmentId;
  readonly name: string;
  readonly mimeType: string;
  readonly size: number;
  readonly sha256: string;
}

interface NoteContext {
  readonly folders: Map<string, FolderId>;
  readonly images: Map<string, CheckedImage>;
  readonly attachments: Map<string, VaultAttachment>;
  readonly rewriter: NoteRewriteSession;
  /** The images and files some note already stored a copy of: each further note linking one stores another. */
  readonly embedded: Set<string>;
  /** Quota held for those further copies until the import ends. */
  readonly held: (() => void)[];
}

/** POST /folders's rule for a name, as the reason it refuses one. */
function folderNameProblem(name: string): string | null {
  const parsed = folderNameField.safeParse(name);
  return parsed.success ? null : parsed.error.issues.map((issue) => issue.message).join("; ");
}

export class VaultImport {
  private readonly result: ImportResult = { foldersCreated: 0, pagesCreated: 0, imagesUploaded: 0, attachmentsUploaded: 0, backlinksCreated: 0, errors: [] };
  private position: number | null = null;
  /**
   * Bytes of the images and files this import recorded: what its reservations hold that the read models show
   * once they catch up.
   */
  private storedBytes = 0;
  private readonly owner: UserId;
  /** What derived ids are made from: one of the scopes, chosen when the import runs. */
  private scope: string;

  constructor(
    private readonly ports: CommandApiPorts,
    private readonly actor: Actor,
    /** From the caller and the Idempotency-Key (shared/imports/import-ids.ts), or a fresh id. */
    private readonly scopes: ImportScopes,
  ) {
    this.owner = userIdSchema.parse(actor.context.actorId);
    this.scope = scopes.keyed;
  }

  /**
   * The legacy scope when the first attempt of this key derived its ids before scopes were keyed: what it made
   * first (the first folder, or the first note's page) exists under the legacy id.
   */
  private async chooseScope(directories: readonly string[], notes: readonly VaultNote[]): Promise<string> {
    const { keyed, legacy } = this.scopes;
    if (legacy === null) return keyed;
    const [directory] = directories;
    if (directory !== undefined && (await folderCommands.load(this.ports.eventStore, folderIdSchema.parse(derivedId(legacy, "folder", directory)))).status !== "absent") return legacy;
    const [note] = notes;
    if (note !== undefined && (await pageCommands.load(this.ports.eventStore, pageIdSchema.parse(importedPageId(legacy, note.path)))).status !== "absent") return legacy;
    return keyed;
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
    log.info({ event: "import.started", correlationId, notes: tree.notes.length, images: vault.images.length, folders: tree.directories.length });

    const images = await this.checkImages(vault.images);
    const attachments = this.checkAttachments(vault.attachments);
    // The images and files count against the workspace's blob quota together before anything is made: a vault
    // whose files do not fit even once is refused whole (409 quota_exceeded). Each note linking a file stores a
    // copy of its own, so a file linked by a second note holds its bytes again when that note is imported
    // (`holdCopies`), and a note that does not fit then is skipped with the quota's refusal.
    const imageBytes = [...images.values()].reduce((total, checked) => total + checked.image.bytes.length, 0);
    const fileBytes = [...attachments.values()].reduce((total, file) => total + file.source.size, 0);
    const held = [await this.ports.quotas.blobBytes.reserve(this.owner, imageBytes + fileBytes)];
    try {
      const folders = await this.createFolders(tree.directories);
      const rewriter = this.ports.notes.session({ scope: this.scope, notePaths: tree.notes.map((note) => note.path), imagePaths: [...images.keys()], attachmentPaths: [...attachments.keys()] });
      const context: NoteContext = { folders, images, attachments, rewriter, embedded: new Set<string>(), held };
      try {
        for (const [index, note] of tree.notes.entries()) {
          await yieldToLoop();
          await this.importNote(note, context);
          if ((index + 1) % PROGRESS_EVERY === 0) log.info({ event: "import.progress", correlationId, notes: index + 1, of: tree.notes.length });
        }
      } finally {
        rewriter.close();
      }
      for (const path of images.keys()) if (!context.embedded.has(path)) this.result.errors.push(`${JSON.stringify(path)}: skipped: no imported note embeds this image`);
      for (const path of attachments.keys()) if (!context.embedded.has(path)) this.result.errors.push(`${JSON.stringify(path)}: skipped: no imported note links this file`);
    } finally {
      for (const release of held) release();
    }
    log.info({ event: "import.finished", correlationId, ...this.result, errors: this.result.errors.length });
    return { result: this.result, position: this.position };
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

  private async createFolders(directories: readonly string[]): Promise<Map<string, FolderId>> {
    const byPath = await ownFoldersByPath(this.ports.views.folders, this.owner);
    for (const directory of directories) {
      await yieldToLoop();
      if (byPath.has(directory.toLowerCase())) continue;
      const slash = directory.lastIndexOf("/");
      const parentId = slash === -1 ? null : (byPath.get(directory.slice(0, slash).toLowerCase()) ?? null);
      const folderId = folderIdSchema.parse(derivedId(this.scope, "folder", directory));
      byPath.set(directory.toLowerCase(), folderId);
      if ((await folderCommands.load(this.ports.eventStore, folderId)).status !== "absent") continue;
      const command = { type: "CreateFolder" as const, folderId, ownerId: this.owner, parentId, name: directory.slice(slash + 1), icon: null };
      const { position } = await folderCommands.handle(this.ports.eventStore, folderId, command, this.actor.context);
      this.record(position);
      this.result.foldersCreated += 1;
    }
    return byPath;
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
        this.result.errors.push(`${JSON.stringify(attachment.path)}: skipped: larger than ${this.ports.attachmentMaxBytes} bytes (ATTACHMENT_MAX_BYTES)`);
      } else {
        checked.set(attachment.path, attachment);
      }
    }
    return checked;
  }

  private imageIdFor(note: VaultNote, imagePath: string): ImageId {
    return imageIdSchema.parse(importedImageId(this.scope, note.path, imagePath));
  }

  private async importNote(note: VaultNote, context: NoteContext): Promise<void> {
    const label = JSON.stringify(note.path);
    const outcome = await context.rewriter.rewrite({ path: note.path, directory: note.directory, markdown: note.markdown });
    if (outcome.kind === "unreadable") {
      this.result.errors.push(`${label}: skipped: it could not be read as markdown`);
      return;
    }
    if (outcome.kind === "too_complex") {
      this.result.errors.push(`${label}: skipped: too complex to read (its markdown took longer to parse than an import allows one note)`);
      return;
    }
    if (outcome.kind === "too_large") {
      this.result.errors.push(`${label}: skipped: too large to read (parsing its markdown needed more memory than an import allows one note)`);
      return;
    }
    const rewritten = outcome.note;
    // Receiving a large note from the worker takes the loop a while: other requests go first.
    await yieldToLoop();
    if (rewritten.markdown.length > MARKDOWN_MAX_CHARS) {
      this.result.errors.push(`${label}: skipped: with its links rewritten it is ${rewritten.markdown.length} characters; a page holds at most ${MARKDOWN_MAX_CHARS}`);
      return;
    }
    for (const problem of rewritten.problems) this.result.errors.push(`${label}: ${problem}`);
    const title = this.field(titleField, rewritten.title, label, "title") ?? this.field(titleField, note.name.slice(0, 200), label, "file name") ?? "Untitled";
    const icon = this.field(iconField, rewritten.icon, label, "icon");
    const pageId = pageIdSchema.parse(importedPageId(this.scope, note.path));

    await this.reported(label, async () => {
      await this.holdCopies(context, rewritten.images, rewritten.attachments);
      for (const imagePath of rewritten.images) {
        const checked = context.images.get(imagePath);
        if (!checked) continue;
        context.embedded.add(imagePath);
        await this.uploadImage(checked, this.imageIdFor(note, imagePath), pageId);
      }
      const linked = rewritten.attachments.flatMap((path) => context.attachments.get(path) ?? []);
      // Bytes first, records after the page exists, so the page's history starts with its creation.
      const stored: StoredAttachment[] = [];
      for (const file of linked) {
        context.embedded.add(file.path);
        const attachmentId = this.attachmentIdFor(note, file.path);
        if ((await attachmentCommands.load(this.ports.eventStore, attachmentId)).status !== "absent") continue;
        stored.push({ file, attachmentId, ...(await this.storeAttachment(file, attachmentId)) });
      }
      if ((await pageCommands.load(this.ports.eventStore, pageId)).status === "absent") {
        const parentId = note.directory === "" ? null : (context.folders.get(note.directory.toLowerCase()) ?? null);
        const command = { type: "CreatePage" as const, pageId, ownerId: this.owner, parentId, title, icon, markdown: rewritten.markdown };
        const { position } = await pageCommands.handle(this.ports.eventStore, pageId, command, this.actor.context);
        this.record(position);
        this.result.pagesCreated += 1;
        this.result.backlinksCreated += rewritten.backlinks;
      }
      for (const attachment of stored) await this.recordAttachment(attachment, pageId);
    });
  }

  /**
   * Holds the quota for the copies a note stores of images and files an earlier note stored already (the first
   * copy of each is in the import's up-front reservation); refuses the note (409's message) when they do not fit.
   */
  private async holdCopies(context: NoteContext, imagePaths: readonly string[], filePaths: readonly string[]): Promise<void> {
    let again = 0;
    for (const path of new Set(imagePaths)) if (context.embedded.has(path)) again += context.images.get(path)?.image.bytes.length ?? 0;
    for (const path of new Set(filePaths)) if (context.embedded.has(path)) again += context.attachments.get(path)?.source.size ?? 0;
    if (again === 0) return;
    // Once the read models show the copies recorded so far, they are counted there and not again as held; if the
    // projection is late, they count twice, which can only refuse sooner.
    const shown = this.position === null || (await this.ports.projection.waitFor(this.position, this.ports.consistencyWaitMs));
    context.held.push(await this.ports.quotas.blobBytes.reserve(this.owner, again, shown ? this.storedBytes : 0));
  }

  /** A frontmatter or file-name value as a page field, or null (reported) when the field's rules refuse it. */
  private field(schema: z.ZodType<string, string>, value: string | null, label: string, what: string): string | null {
    if (value === null) return null;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    this.result.errors.push(`${label}: its ${what} was not used: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
    return null;
  }

  private attachmentIdFor(note: VaultNote, filePath: string): AttachmentId {
    return attachmentIdSchema.parse(importedAttachmentId(this.scope, note.path, filePath));
  }

  /** Streams a linked file into the blob store (a zip entry inflates as it goes), measuring it on the way. */
  private async storeAttachment(file: VaultAttachment, attachmentId: AttachmentId): Promise<Omit<StoredAttachment, "file" | "attachmentId">> {
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
        // The file's own fault (a damaged entry): reported as that file's, not the request's.
        throw error instanceof AppError ? error : new AppError("validation_failed", `${JSON.stringify(file.path)} could not be read`);
      }
    };
    const size = await this.ports.blobs.putStream(blobKeySchema.parse(attachmentBlobKey(attachmentId)), measured());
    return { size, sha256: hash.digest("hex"), mimeType: fileTypeOf(head, name), name };
  }

  /** Records an attachment whose bytes are stored. */
  private async recordAttachment(stored: StoredAttachment, pageId: PageId): Promise<void> {
    const { attachmentId, name, mimeType, size, sha256 } = stored;
    const attachment = { attachmentId, pageId, uploaderId: this.owner, filename: name, originalName: name, mimeType, size, sha256 };
    const { position } = await attachmentCommands.handle(this.ports.eventStore, attachmentId, { type: "RecordAttachmentUpload", attachment }, this.actor.context);
    this.record(position);
    this.result.attachmentsUploaded += 1;
    this.storedBytes += size;
  }

  private async uploadImage(checked: CheckedImage, imageId: ImageId, pageId: PageId): Promise<void> {
    if ((await imageCommands.load(this.ports.eventStore, imageId)).exists) return;
    const filename = imageBlobKey(imageId, checked.inspected.extension);
    await this.ports.blobs.put(blobKeySchema.parse(filename), checked.image.bytes);
    const image = {
      imageId,
      pageId,
      uploaderId: this.owner,
      filename,
      originalName: checked.image.path.slice(checked.image.path.lastIndexOf("/") + 1),
      mimeType: checked.inspected.mimeType,
      size: checked.image.bytes.length,
      width: checked.inspected.width,
      height: checked.inspected.height,
      alt: "",
      sha256: checked.sha256,
    };
    const { position } = await imageCommands.handle(this.ports.eventStore, imageId, { type: "RecordImageUpload", image }, this.actor.context);
    this.record(position);
    this.result.imagesUploaded += 1;
    this.storedBytes += image.size;
  }
}
