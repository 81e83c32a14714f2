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
import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { z } from "zod";
import { pageAccess } from "../../../shared/access/authorize.ts";
import type { Actor } from "../../../shared/commands/guarded-command.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { folderCommands } from "../../../shared/folders/folder.commands.ts";
import { derivedId, type ImportScopes } from "../../../shared/imports/import-ids.ts";
import type { NoteRewriteSession } from "../../../shared/imports/note-rewriter.ts";
import { importedPageId } from "../../../shared/imports/vault-resolver.ts";
import {
  sortVault,
  type VaultAttachment,
  type VaultFile,
  type VaultNote,
} from "../../../shared/imports/vault-files.ts";
import { planFolders } from "../../../shared/imports/vault-folders.ts";
import { folderIdSchema, pageIdSchema, type FolderId, type UserId } from "../../../shared/kernel/ids.ts";
import { pageCommands } from "../../../shared/pages/page.commands.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import type { ImportResult } from "./import-result.ts";
import { folderNameField } from "../../../shared/folders/folder.fields.ts";
import { iconField } from "../../../shared/kernel/text-fields.ts";
import { MARKDOWN_MAX_CHARS, titleField } from "../../../shared/pages/page.fields.ts";
import { foldersAtTarget } from "./folders-at-target.ts";
import type { ImportTarget } from "./import-target.ts";
import { ImportTally } from "./import-tally.ts";
import { LinkedFiles, type CheckedImage, type StoredAttachment } from "./linked-files.ts";

const PROGRESS_EVERY = 100;

/** What bounds one import's writes, besides the owner's quota. */
export interface ImportLimits {
  /** Bytes of notes and images read, and of linked files written (each once), in all. */
  readonly maxWrittenBytes: number;
}

interface NoteContext {
  readonly files: LinkedFiles;
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

export class VaultImport {
  private readonly tally = new ImportTally();
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

  async run(files: readonly VaultFile[]): Promise<{ result: ImportResult; position: number | null }> {
    const vault = sortVault(files);
    const tree = planFolders(vault.notes, folderNameProblem);
    this.tally.result.errors.push(...vault.errors, ...tree.errors);
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

    const linked = new LinkedFiles(this.ports, this.actor, this.scope, this.limits.maxWrittenBytes, this.tally);
    const images = await linked.checkImages(vault.images);
    const attachments = linked.checkAttachments(vault.attachments);
    this.tally.written =
      tree.notes.reduce((total, note) => total + Buffer.byteLength(note.markdown), 0) +
      [...images.values()].reduce((total, checked) => total + checked.image.bytes.length, 0);
    // What the import may store counts against the workspace's blob quota before anything is made: each image and
    // file once, but not those an earlier import stored already (a vault imported again), and a vault that does
    // not fit is refused whole (409 quota_exceeded). Each is stored once, however many notes link it.
    const release = await this.ports.quotas.blobBytes.reserve(
      this.owner,
      await linked.bytesToStore(images, attachments),
    );
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
        files: linked,
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
          this.tally.result.errors.push(`${JSON.stringify(path)}: skipped: no imported note embeds this image`);
      for (const path of attachments.keys())
        if (!context.linked.has(path))
          this.tally.result.errors.push(`${JSON.stringify(path)}: skipped: no imported note links this file`);
    } finally {
      release();
    }
    log.info({
      event: "import.finished",
      correlationId,
      ...this.tally.result,
      errors: this.tally.result.errors.length,
    });
    return { result: this.tally.result, position: this.tally.position };
  }

  /** Runs one file's writes: a refusal of the domain's (an AppError) is that file's, anything else the request's. */
  private async reported(label: string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.tally.result.errors.push(`${label}: skipped: ${error.message}`);
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
        this.tally.result.unchanged += 1;
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
        this.tally.result.unchanged += 1;
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
      this.tally.record(position);
      this.tally.result.foldersCreated += 1;
      this.tally.result.created += 1;
    }
    return { folders: byPath, unavailable };
  }

  private async importNote(note: VaultNote, context: NoteContext): Promise<void> {
    const label = JSON.stringify(note.path);
    const folderProblem = context.unavailable.get(note.directory.toLowerCase());
    if (folderProblem !== undefined) {
      this.tally.result.errors.push(`${label}: skipped: ${folderProblem}`);
      return;
    }
    const pageId = pageIdSchema.parse(importedPageId(this.scope, note.path));
    const page = await pageCommands.load(this.ports.eventStore, pageId);
    if (page.status === "deleted") {
      this.tally.result.errors.push(
        `${label}: skipped: its page from an earlier import is in the trash; restore it to import the note into it again`,
      );
      return;
    }
    if (page.status === "purged") {
      this.tally.result.errors.push(
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
      this.tally.result.errors.push(`${label}: skipped: it could not be read as markdown`);
      return;
    }
    if (outcome.kind === "too_complex") {
      this.tally.result.errors.push(
        `${label}: skipped: too complex to read (its markdown took longer to parse than an import allows one note)`,
      );
      return;
    }
    if (outcome.kind === "too_large") {
      this.tally.result.errors.push(
        `${label}: skipped: too large to read (parsing its markdown needed more memory than an import allows one note)`,
      );
      return;
    }
    const rewritten = outcome.note;
    // Receiving a large note from the worker takes the loop a while: other requests go first.
    await yieldToLoop();
    if (rewritten.markdown.length > MARKDOWN_MAX_CHARS) {
      this.tally.result.errors.push(
        `${label}: skipped: with its links rewritten it is ${rewritten.markdown.length} characters; a page holds at most ${MARKDOWN_MAX_CHARS}`,
      );
      return;
    }
    for (const problem of rewritten.problems) this.tally.result.errors.push(`${label}: ${problem}`);
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
        await context.files.uploadImage(checked, pageId);
        context.settled.add(imagePath);
      }
      // Bytes first, records after the page exists, so the page's history starts with its creation.
      const stored: StoredAttachment[] = [];
      for (const path of rewritten.attachments) {
        const file = context.attachments.get(path);
        if (!file || context.settled.has(path)) continue;
        const attachment = await context.files.storeAttachment(file, pageId);
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
        this.tally.record(position);
        this.tally.result.pagesCreated += 1;
        this.tally.result.created += 1;
        this.tally.result.backlinksCreated += rewritten.backlinks;
      } else if (page.title === title && page.icon === icon && page.markdown === rewritten.markdown) {
        this.tally.result.unchanged += 1;
      } else {
        // The vault's version wins; the page's history keeps what it replaces.
        const renamed = await pageCommands.handle(
          this.ports.eventStore,
          pageId,
          { type: "UpdatePage", pageId, title, icon },
          this.actor.context,
        );
        this.tally.record(renamed.position);
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
        this.tally.record(content.position);
        this.tally.result.updated += 1;
      }
      for (const attachment of stored) await context.files.recordAttachment(attachment);
    });
  }

  /** A frontmatter or file-name value as a page field, or null (reported) when the field's rules refuse it. */
  private field(schema: z.ZodType<string, string>, value: string | null, label: string, what: string): string | null {
    if (value === null) return null;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    this.tally.result.errors.push(
      `${label}: its ${what} was not used: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`,
    );
    return null;
  }
}
