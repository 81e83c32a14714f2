// The images and other files a vault's notes link: checked before any note is imported (an image must decode, a
// file stay within ATTACHMENT_MAX_BYTES), counted against the quota, then each stored once with the first note
// linking it, unless an earlier import into the same place stored the same bytes (ids derive from the scope and
// the file's path, shared/imports/vault-resolver.ts).
import { createHash } from "node:crypto";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { pageAccess } from "../../../shared/access/authorize.ts";
import { attachmentBlobKey } from "../../../shared/attachments/attachment-blobs.ts";
import { attachmentCommands } from "../../../shared/attachments/attachment.commands.ts";
import type { AttachmentState } from "../../../shared/attachments/attachment.decider.ts";
import { fileTypeOf, SNIFF_BYTES } from "../../../shared/attachments/file-type.ts";
import { blobKeySchema } from "../../../shared/blobs/blob-store.port.ts";
import type { Actor } from "../../../shared/commands/guarded-command.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { imageBlobKey } from "../../../shared/images/image-blobs.ts";
import { imageCommands } from "../../../shared/images/image.commands.ts";
import type { InspectedImage } from "../../../shared/images/inspect-image.ts";
import { importedAttachmentId, importedImageId } from "../../../shared/imports/vault-resolver.ts";
import type { VaultAttachment, VaultImage } from "../../../shared/imports/vault-files.ts";
import {
  attachmentIdSchema,
  imageIdSchema,
  type AttachmentId,
  type ImageId,
  type PageId,
} from "../../../shared/kernel/ids.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import type { ImportTally } from "./import-tally.ts";

export interface CheckedImage {
  readonly image: VaultImage;
  readonly inspected: InspectedImage;
  readonly sha256: string;
}

/** A linked file's new bytes, stored under its attachment's id, waiting for its page to exist to be recorded. */
export interface StoredAttachment {
  readonly attachmentId: AttachmentId;
  /** The page it is recorded on: the first note linking it, or the page it was attached to before. */
  readonly pageId: PageId;
  readonly replaces: boolean;
  readonly name: string;
  readonly mimeType: string;
  readonly size: number;
  readonly sha256: string;
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

export class LinkedFiles {
  constructor(
    private readonly ports: CommandApiPorts,
    private readonly actor: Actor,
    /** What derived ids are made from (the scope the import chose). */
    private readonly scope: string,
    /** Bytes of notes and images read, and of linked files written (each once), in all. */
    private readonly maxWrittenBytes: number,
    private readonly tally: ImportTally,
  ) {}

  /** Bytes of the images not uploaded yet, and of the files not attached yet or attached with another size. */
  async bytesToStore(
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

  async checkImages(images: readonly VaultImage[]): Promise<Map<string, CheckedImage>> {
    const checked = new Map<string, CheckedImage>();
    for (const image of images) {
      await yieldToLoop();
      try {
        const inspected = await this.ports.images.inspect(image.bytes, "wait");
        checked.set(image.path, { image, inspected, sha256: createHash("sha256").update(image.bytes).digest("hex") });
      } catch (error) {
        const why = error instanceof AppError ? error.message.replace(/^file: /, "") : "it could not be read";
        this.tally.result.errors.push(`${JSON.stringify(image.path)}: skipped: ${why}`);
      }
    }
    return checked;
  }

  /** Files over ATTACHMENT_MAX_BYTES are reported and left out, as an upload of them would be refused. */
  checkAttachments(attachments: readonly VaultAttachment[]): Map<string, VaultAttachment> {
    const checked = new Map<string, VaultAttachment>();
    for (const attachment of attachments) {
      if (attachment.source.size > this.ports.attachmentMaxBytes) {
        this.tally.result.errors.push(
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

  /**
   * Stores a linked file's bytes under its attachment's id unless an earlier import attached the same bytes
   * (unchanged: null) or the user deleted that attachment since (reported: null). Counts them against the
   * import's limit before writing.
   */
  async storeAttachment(file: VaultAttachment, pageId: PageId): Promise<StoredAttachment | null> {
    const attachmentId = this.attachmentIdFor(file.path);
    const state: AttachmentState = await attachmentCommands.load(this.ports.eventStore, attachmentId);
    if (state.status === "deleted") {
      this.tally.result.errors.push(
        `${JSON.stringify(file.path)}: skipped: its attachment from an earlier import was deleted since`,
      );
      return null;
    }
    if (state.status === "live") {
      if (state.attachment.size === file.source.size && state.attachment.sha256 === (await sha256Of(file))) {
        this.tally.result.unchanged += 1;
        return null;
      }
      await pageAccess("edit")(this.ports.views, this.actor.principal, state.attachment.pageId);
    }
    if (this.tally.written + file.source.size > this.maxWrittenBytes) {
      throw new AppError(
        "payload_too_large",
        `${JSON.stringify(file.path)} would take what this import reads and writes past ${this.maxWrittenBytes} bytes`,
      );
    }
    this.tally.written += file.source.size;
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
  async recordAttachment(stored: StoredAttachment): Promise<void> {
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
    this.tally.record(position);
    if (stored.replaces) {
      this.tally.result.updated += 1;
    } else {
      this.tally.result.attachmentsUploaded += 1;
      this.tally.result.created += 1;
    }
  }

  /** Uploads an image with the first note embedding it, unless an earlier import uploaded the same bytes. */
  async uploadImage(checked: CheckedImage, pageId: PageId): Promise<void> {
    const imageId = this.imageIdFor(checked);
    if ((await imageCommands.load(this.ports.eventStore, imageId)).exists) {
      this.tally.result.unchanged += 1;
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
    this.tally.record(position);
    this.tally.result.imagesUploaded += 1;
    this.tally.result.created += 1;
  }
}
