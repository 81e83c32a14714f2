// Image upload: multipart/form-data with `file` and `alt`, read as it streams and never past the 10 MB limit.
// The type comes from the bytes (sharp), never from the name or the declared type. The bytes are stored first
// and ImageUploaded recorded after, so no record ever points at missing bytes (orphans are swept; see
// shared/blobs/orphan-blobs.ts). Needs pages:write and edit permission on the page.
import { createHash, randomUUID } from "node:crypto";
import multipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { pageAccess } from "../../../shared/access/authorize.ts";
import { blobKeySchema } from "../../../shared/blobs/blob-store.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { nameProblem } from "../../../shared/kernel/name-rules.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { locationOf } from "../../../shared/http/locations.ts";
import { imageCommands } from "../../../shared/images/image.commands.ts";
import { imageResource, imageUploadForm, toImageResource } from "../../../shared/images/image.resource.ts";
import { imageBlobKey } from "../../../shared/images/image-blobs.ts";
import { imageIdSchema, pageIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { imageAnswer } from "../answers/upload.answer.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";
import { textField } from "../../../shared/kernel/text-fields.ts";
import { closeAfterAnswer } from "./unread-body.ts";

/** 10 MB as 10 × 2^20 bytes: a file of exactly this size is accepted, one byte more is 413. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** What a form may add around the file (boundaries, part headers, the alt field) in a declared Content-Length. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const ALT_MAX_CHARS = 1_000;
const ORIGINAL_NAME_MAX_CHARS = 255;
/** Bytes a text field may take on the wire: busboy cuts longer values, which are then refused. */
const FIELD_MAX_BYTES = 16 * 1024;

const altField = textField({ max: ALT_MAX_CHARS });
/** A file name is a name: no bidirectional controls either (shared/kernel/name-rules.ts). */
const originalNameField = textField({ max: ORIGINAL_NAME_MAX_CHARS }).refine(
  (name) => nameProblem(name) === null,
  "must not hold control characters or bidirectional override or isolate characters",
);

interface UploadForm {
  readonly bytes: Buffer;
  readonly alt: string;
  /** The file name the client sent, without any directory part; empty when it sent none. */
  readonly originalName: string;
}

/** Closing the connection is how the rest of an oversized body goes unread. */
const tooLarge = (): AppError =>
  new AppError("payload_too_large", `file: larger than ${IMAGE_MAX_BYTES} bytes (10 MB)`, { connection: "close" });

const fieldError = (field: string, issues: z.core.$ZodIssue[]): AppError =>
  new AppError("validation_failed", `body.${field}: ${issues.map((issue) => issue.message).join("; ")}`);

/** The form's parts in any order; the file is read chunk by chunk and abandoned the moment it passes the limit. */
async function readUploadForm(request: FastifyRequest): Promise<UploadForm> {
  if (!request.isMultipart())
    throw new AppError("unsupported_media_type", "send multipart/form-data with a `file` part and an `alt` field");
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > IMAGE_MAX_BYTES + FORM_OVERHEAD_BYTES) throw tooLarge();

  let file: { bytes: Buffer; originalName: string } | null = null;
  let alt: string | null = null;
  const parts = request.parts({
    limits: {
      fileSize: IMAGE_MAX_BYTES + 1,
      files: 1,
      fields: 8,
      parts: 9,
      fieldSize: FIELD_MAX_BYTES,
      headerPairs: 50,
    },
  });
  try {
    for await (const part of parts) {
      if (part.type === "field") {
        if (part.fieldname !== "alt") continue;
        if (part.valueTruncated || typeof part.value !== "string")
          throw new AppError("validation_failed", `body.alt: at most ${ALT_MAX_CHARS} characters`);
        const parsed = altField.safeParse(part.value);
        if (!parsed.success) throw fieldError("alt", parsed.error.issues);
        alt = parsed.data;
        continue;
      }
      if (part.fieldname !== "file") {
        part.file.resume();
        throw new AppError("validation_failed", `body.${part.fieldname}: unexpected file; send the image as \`file\``);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
        size += bytes.length;
        if (size > IMAGE_MAX_BYTES) {
          part.file.destroy();
          throw tooLarge();
        }
        chunks.push(bytes);
      }
      const name = (part.filename ?? "").split(/[\\/]/).at(-1) ?? "";
      const parsedName = originalNameField.safeParse(name);
      if (!parsedName.success) throw fieldError("file's name", parsedName.error.issues);
      file = { bytes: Buffer.concat(chunks, size), originalName: parsedName.data };
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    if (code === "FST_FILES_LIMIT") throw new AppError("validation_failed", "send exactly one file, as `file`");
    if (code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT")
      throw new AppError("validation_failed", "too many form fields: send `file` and `alt`");
    throw new AppError("validation_failed", "the multipart body could not be read");
  }
  if (!file) throw new AppError("validation_failed", "body.file: required (the image, as a file part)");
  if (alt === null) throw new AppError("validation_failed", "body.alt: required (may be empty for a decorative image)");
  return { bytes: file.bytes, originalName: file.originalName, alt };
}

export async function imageCommandRoutes(app: App, ports: CommandApiPorts): Promise<void> {
  const answer = answerWrites(ports);
  // In a scope of its own: only this route takes multipart bodies.
  await app.register(async (scope: App) => {
    // The limit is counted here, chunk by chunk, rather than by the plugin.
    await scope.register(multipart, { throwFileSizeLimit: false });
    scope.post(
      "/pages/:pageId/images",
      {
        config: { access: { scope: "pages:write" }, form: imageUploadForm },
        schema: {
          params: z.object({ pageId: pageIdSchema }),
          consumes: ["multipart/form-data"],
          response: writeResponses({ 201: imageResource }),
        },
      },
      async (request, reply) =>
        answer(request, reply, async ({ actor, once, settle }) => {
          const { pageId } = request.params;
          // Permission first: a caller who may not upload here is not made to send 10 MB to learn it.
          const { page } = await pageAccess("edit")(ports.views, actor.principal, pageId);
          const form = await readUploadForm(request).catch((error: unknown) => {
            // The rest of an oversized body is never read.
            if (error instanceof AppError && error.code === "payload_too_large") closeAfterAnswer(request, reply);
            throw error;
          });
          const inspected = await ports.images.inspect(form.bytes, "refuse");
          const sha256 = createHash("sha256").update(form.bytes).digest("hex");
          const fingerprintBody = { alt: form.alt, originalName: form.originalName, sha256 };
          const store = async () => {
            const imageId = imageIdSchema.parse(randomUUID());
            const filename = imageBlobKey(imageId, inspected.extension);
            await ports.blobs.put(blobKeySchema.parse(filename), form.bytes);
            const image = {
              imageId,
              pageId: pageIdSchema.parse(pageId),
              uploaderId: userIdSchema.parse(actor.context.actorId),
              filename,
              originalName: form.originalName || filename,
              mimeType: inspected.mimeType,
              size: form.bytes.length,
              width: inspected.width,
              height: inspected.height,
              alt: form.alt,
              sha256,
            };
            const { position } = await imageCommands.handle(
              ports.eventStore,
              imageId,
              { type: "RecordImageUpload", image },
              actor.context,
            );
            const { imageId: id, ...recorded } = image;
            const created = toImageResource({ id, ...recorded, createdAt: actor.context.now.toISOString() });
            return settle({
              position,
              status: 201,
              location: locationOf.image(imageId),
              answer: imageAnswer(pageId, created),
            });
          };
          // The bytes count against the workspace's quota from before they are stored until the answer.
          // The answer names the image by its own URL: it is recorded with its page, so a purge of the page erases it.
          return once(() => ports.quotas.blobBytes.withReserved(page.ownerId, form.bytes.length, store), {
            fingerprintBody,
            pageId,
          });
        }),
    );
  });
}
