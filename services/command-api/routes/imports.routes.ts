// POST /imports/obsidian: a vault's notes and images become folders, pages and uploaded images under the
// caller's root, with wikilinks and embeds rewritten to what was imported. One request is one logical
// operation: every event carries the request's correlation id, ids derive from the Idempotency-Key (when sent)
// so a retry after a failure creates only what is missing, and progress is logged as it goes.
import { createHash, randomUUID } from "node:crypto";
import { z } from "zod";
import { blobKeySchema } from "../../../shared/blobs/blob-store.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { folderCommands } from "../../../shared/folders/folder.commands.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { imageCommands } from "../../../shared/images/image.commands.ts";
import { imageMarkdown, imageUrl } from "../../../shared/images/image.resource.ts";
import { inspectImage, type InspectedImage } from "../../../shared/images/inspect-image.ts";
import { imageBlobKey } from "../../../shared/images/orphan-blobs.ts";
import { derivedId } from "../../../shared/imports/import-ids.ts";
import { VaultIndex } from "../../../shared/imports/link-resolution.ts";
import { contentBytes, IMPORT_MAX_FILES, IMPORT_MAX_TOTAL_BYTES, sortVault, type VaultImage, type VaultNote } from "../../../shared/imports/vault-files.ts";
import { rewriteNote } from "../../../shared/imports/vault-note.ts";
import { folderIdSchema, imageIdSchema, pageIdSchema, userIdSchema, type FolderId, type UserId } from "../../../shared/kernel/ids.ts";
import { pageCommands } from "../../../shared/pages/page.commands.ts";
import type { Actor } from "../../../shared/commands/guarded-command.ts";
import type { CommandApiPorts } from "../command-api.ts";
import { idempotentWrite } from "../idempotent-write.ts";
import { actorOf, recordedReply, sendWrite, settleWrite, writeResponses } from "../write-answer.ts";
import { iconField, titleField } from "./fields.ts";

/** What the JSON of 50 MB of content can take, with paths and base64 around it. */
const IMPORT_BODY_LIMIT_BYTES = 72 * 1024 * 1024;
const PROGRESS_EVERY = 100;

const importBody = z.object({
  files: z
    .array(z.object({ path: z.string().max(4_096), content: z.string() }))
    .min(1)
    .max(IMPORT_MAX_FILES, `at most ${IMPORT_MAX_FILES} files per import`),
});

export const importResult = z.object({
  foldersCreated: z.number().int(),
  pagesCreated: z.number().int(),
  imagesUploaded: z.number().int(),
  backlinksCreated: z.number().int(),
  errors: z.array(z.string()),
});
type ImportResult = z.infer<typeof importResult>;

interface CheckedImage {
  readonly image: VaultImage;
  readonly inspected: InspectedImage;
  readonly sha256: string;
}

/** The caller's own folders by path, to reuse one an earlier import (or the caller) made with the same path. */
async function ownFoldersByPath(ports: CommandApiPorts, ownerId: string): Promise<Map<string, FolderId>> {
  const byPath = new Map<string, FolderId>();
  const visibleTo = { ownerIds: [ownerId], pageIds: [], folderIds: [] };
  for (let before: number | null = null; ; ) {
    const rows = await ports.views.folders.list({ visibleTo, before, limit: 1_000 });
    for (const folder of rows.slice(0, 1_000)) if (folder.ownerId === ownerId) byPath.set(folder.path, folderIdSchema.parse(folder.id));
    const last = rows.at(Math.min(rows.length, 1_000) - 1);
    if (rows.length <= 1_000 || !last) return byPath;
    before = last.updatedPosition;
  }
}

class VaultImport {
  private readonly result: { foldersCreated: number; pagesCreated: number; imagesUploaded: number; backlinksCreated: number; errors: string[] };
  private position: number | null = null;
  private readonly owner: UserId;

  constructor(
    private readonly ports: CommandApiPorts,
    private readonly actor: Actor,
    /** The caller and the Idempotency-Key (or a fresh id): what derived ids are made from. */
    private readonly scope: string,
  ) {
    this.owner = userIdSchema.parse(actor.context.actorId);
    this.result = { foldersCreated: 0, pagesCreated: 0, imagesUploaded: 0, backlinksCreated: 0, errors: [] };
  }

  private record(position: number | null): void {
    if (position !== null) this.position = Math.max(this.position ?? 0, position);
  }

  async run(files: ReadonlyArray<{ path: string; content: string }>): Promise<{ result: ImportResult; position: number | null }> {
    const vault = sortVault(files);
    this.result.errors.push(...vault.errors);
    const log = this.ports.logger;
    log.info({ event: "import.started", correlationId: this.actor.context.correlationId, notes: vault.notes.length, images: vault.images.length, folders: vault.directories.length });

    const folders = await this.createFolders(vault.directories);
    const images = await this.checkImages(vault.images);
    const notes = new VaultIndex(vault.notes.map((note) => note.path), ".md");
    const imageIndex = new VaultIndex([...images.keys()], null);
    const embedded = new Set<string>();
    for (const [index, note] of vault.notes.entries()) {
      await this.importNote(note, { folders, images, notes, imageIndex, embedded });
      if ((index + 1) % PROGRESS_EVERY === 0) log.info({ event: "import.progress", correlationId: this.actor.context.correlationId, notes: index + 1, of: vault.notes.length });
    }
    for (const path of images.keys()) if (!embedded.has(path)) this.result.errors.push(`${JSON.stringify(path)}: skipped: no imported note embeds this image`);
    log.info({ event: "import.finished", correlationId: this.actor.context.correlationId, ...this.result, errors: this.result.errors.length });
    return { result: this.result, position: this.position };
  }

  private async createFolders(directories: readonly string[]): Promise<Map<string, FolderId>> {
    const byPath = await ownFoldersByPath(this.ports, this.owner);
    for (const directory of directories) {
      if (byPath.has(directory)) continue;
      const slash = directory.lastIndexOf("/");
      const parentId = slash === -1 ? null : (byPath.get(directory.slice(0, slash)) ?? null);
      const name = directory.slice(slash + 1);
      const folderId = folderIdSchema.parse(derivedId(this.scope, "folder", directory));
      byPath.set(directory, folderId);
      if ((await folderCommands.load(this.ports.eventStore, folderId)).status !== "absent") continue;
      const { position } = await folderCommands.handle(this.ports.eventStore, folderId, { type: "CreateFolder", folderId, ownerId: this.owner, parentId, name, icon: null }, this.actor.context);
      this.record(position);
      this.result.foldersCreated += 1;
    }
    return byPath;
  }

  private async checkImages(images: readonly VaultImage[]): Promise<Map<string, CheckedImage>> {
    const checked = new Map<string, CheckedImage>();
    for (const image of images) {
      try {
        const inspected = await inspectImage(image.bytes);
        checked.set(image.path, { image, inspected, sha256: createHash("sha256").update(image.bytes).digest("hex") });
      } catch (error) {
        const why = error instanceof AppError ? error.message.replace(/^file: /, "") : "it could not be read";
        this.result.errors.push(`${JSON.stringify(image.path)}: skipped: ${why}`);
      }
    }
    return checked;
  }

  private async importNote(
    note: VaultNote,
    context: { folders: Map<string, FolderId>; images: Map<string, CheckedImage>; notes: VaultIndex; imageIndex: VaultIndex; embedded: Set<string> },
  ): Promise<void> {
    const pageId = pageIdSchema.parse(derivedId(this.scope, "page", note.path));
    const imageIdFor = (imagePath: string) => imageIdSchema.parse(derivedId(this.scope, "image", `${note.path}\n${imagePath}`));
    const rewritten = rewriteNote(note.markdown, {
      page: (target) => {
        const path = context.notes.resolve(target);
        return path === null ? null : `/api/v1/pages/${derivedId(this.scope, "page", path)}`;
      },
      image: (target, alt, relative) => {
        const path = relative ? context.imageIndex.resolveRelative(note.directory, target) : context.imageIndex.resolve(target);
        const checked = path === null ? undefined : context.images.get(path);
        if (!path || !checked) return null;
        return { path, markdown: imageMarkdown(alt, imageUrl(imageIdFor(path))) };
      },
    });
    const label = JSON.stringify(note.path);
    for (const problem of rewritten.problems) this.result.errors.push(`${label}: ${problem}`);
    const title = this.field(titleField, rewritten.title, label, "title") ?? this.field(titleField, note.name.slice(0, 200), label, "file name") ?? "Untitled";
    const icon = this.field(iconField, rewritten.icon, label, "icon");

    for (const imagePath of rewritten.images) {
      const checked = context.images.get(imagePath);
      if (!checked) continue;
      context.embedded.add(imagePath);
      await this.uploadImage(checked, imageIdFor(imagePath), pageId);
    }
    if ((await pageCommands.load(this.ports.eventStore, pageId)).status !== "absent") return;
    const parentId = note.directory === "" ? null : (context.folders.get(note.directory) ?? null);
    const command = { type: "CreatePage" as const, pageId, ownerId: this.owner, parentId, title, icon, markdown: rewritten.markdown };
    const { position } = await pageCommands.handle(this.ports.eventStore, pageId, command, this.actor.context);
    this.record(position);
    this.result.pagesCreated += 1;
    this.result.backlinksCreated += rewritten.backlinks;
  }

  /** A frontmatter or file-name value as a page field, or null (reported) when the field's rules refuse it. */
  private field(schema: z.ZodType<string, string>, value: string | null, label: string, what: string): string | null {
    if (value === null) return null;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    this.result.errors.push(`${label}: its ${what} was not used: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
    return null;
  }

  private async uploadImage(checked: CheckedImage, imageId: ReturnType<typeof imageIdSchema.parse>, pageId: ReturnType<typeof pageIdSchema.parse>): Promise<void> {
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
  }
}

export function importCommandRoutes(app: App, ports: CommandApiPorts): void {
  app.post(
    "/imports/obsidian",
    {
      bodyLimit: IMPORT_BODY_LIMIT_BYTES,
      config: { access: { scope: "pages:write" } },
      schema: { body: importBody, response: writeResponses({ 201: importResult, 202: recordedReply }) },
    },
    async (request, reply) => {
      const actor = actorOf(request, ports.clock);
      const { files } = request.body;
      const bytes = contentBytes(files);
      if (bytes > IMPORT_MAX_TOTAL_BYTES) {
        throw new AppError("validation_failed", `body.files: ${bytes} bytes of content; an import takes at most ${IMPORT_MAX_TOTAL_BYTES} (50 MB)`);
      }
      const key = request.headers["idempotency-key"];
      const scope = `${actor.context.actorId}\n${typeof key === "string" ? key : randomUUID()}`;
      const answer = await idempotentWrite(ports, request, actor, async () => {
        const { result, position } = await new VaultImport(ports, actor, scope).run(files);
        return settleWrite(ports, position, { status: 201, id: null, present: async () => ({ body: result }) });
      });
      return sendWrite(reply, answer);
    },
  );
}
