// The attachment upload form, read as it streams: the file goes chunk by chunk into the blob store (never whole
// in memory), hashed and counted on the way, and abandoned the moment it passes the limit, so a 413 goes out
// before the rest of the body is read. The first bytes are kept to tell the file's type.
import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { type z } from "zod";
import { SNIFF_BYTES, fileTypeOf } from "../../../shared/attachments/file-type.ts";
import { blobKeySchema, type BlobStore } from "../../../shared/blobs/blob-store.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { nameProblem } from "../../../shared/kernel/name-rules.ts";
import { nameField as visibleNameField, textField } from "../../../shared/kernel/text-fields.ts";

/** What a form may add around the file (boundaries, part headers, the name field) in a declared Content-Length. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const NAME_MAX_CHARS = 255;
/** Bytes a text field may take on the wire: busboy cuts longer values, which are then refused. */
const FIELD_MAX_BYTES = 16 * 1024;

/** An attachment's name is a name as a title is (no bidirectional controls: `a\u202Egnp.exe` would read as `aexe.png`). */
const nameField = visibleNameField({ max: NAME_MAX_CHARS }).refine(
  (name) => !/[\\/]/.test(name),
  "must not contain '/' or '\\'",
);
const originalNameField = textField({ max: NAME_MAX_CHARS }).refine(
  (name) => nameProblem(name) === null,
  "must not hold control characters or bidirectional override or isolate characters",
);

export interface StoredUpload {
  /** The `name` field, when sent. */
  readonly name: string | null;
  /** The file's own name without any directory part; empty when the client sent none. */
  readonly originalName: string;
  readonly mimeType: string;
  readonly size: number;
  readonly sha256: string;
}

/**
 * The file's size as far as the declared Content-Length tells it (the form around it may take up to
 * FORM_OVERHEAD_BYTES), at most `maxBytes`; 0 when no length is declared. What an upload holds of the storage
 * quota while it streams, so uploads that cannot fit are refused before their bytes are read.
 */
export function declaredFileBytes(request: FastifyRequest, maxBytes: number): number {
  const declared = Number(request.headers["content-length"]);
  return Number.isFinite(declared) ? Math.min(maxBytes, Math.max(0, declared - FORM_OVERHEAD_BYTES)) : 0;
}

/** Closing the connection is how the rest of an oversized body goes unread. */
const tooLarge = (maxBytes: number): AppError =>
  new AppError("payload_too_large", `file: larger than ${maxBytes} bytes (ATTACHMENT_MAX_BYTES)`, {
    connection: "close",
  });

const fieldError = (field: string, issues: z.core.$ZodIssue[]): AppError =>
  new AppError("validation_failed", `body.${field}: ${issues.map((issue) => issue.message).join("; ")}`);

/** A file part's chunks, counted, hashed and the head kept, failing with 413 past `maxBytes`. */
async function* measured(
  file: AsyncIterable<unknown>,
  maxBytes: number,
  into: { size: number; head: Buffer; hash: ReturnType<typeof createHash> },
): AsyncGenerator<Uint8Array> {
  for await (const chunk of file) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    into.size += bytes.length;
    if (into.size > maxBytes) throw tooLarge(maxBytes);
    into.hash.update(bytes);
    if (into.head.length < SNIFF_BYTES)
      into.head = Buffer.concat([into.head, bytes.subarray(0, SNIFF_BYTES - into.head.length)]);
    yield bytes;
  }
}

/**
 * Reads the form, storing the file under `key` as it arrives. On any failure nothing is left under the key.
 * Parts may come in any order; exactly one file, as `file`.
 */
export async function storeUploadForm(
  request: FastifyRequest,
  blobs: BlobStore,
  key: string,
  maxBytes: number,
): Promise<StoredUpload> {
  if (!request.isMultipart())
    throw new AppError(
      "unsupported_media_type",
      "send multipart/form-data with a `file` part (and optionally a `name` field)",
    );
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes + FORM_OVERHEAD_BYTES) throw tooLarge(maxBytes);

  const blobKey = blobKeySchema.parse(key);
  let stored: Omit<StoredUpload, "name"> | null = null;
  let name: string | null = null;
  const parts = request.parts({
    limits: { fileSize: maxBytes + 1, files: 1, fields: 8, parts: 9, fieldSize: FIELD_MAX_BYTES, headerPairs: 50 },
  });
  try {
    for await (const part of parts) {
      if (part.type === "field") {
        if (part.fieldname !== "name") continue;
        if (part.valueTruncated || typeof part.value !== "string")
          throw new AppError("validation_failed", `body.name: at most ${NAME_MAX_CHARS} characters`);
        const parsed = nameField.safeParse(part.value);
        if (!parsed.success) throw fieldError("name", parsed.error.issues);
        name = parsed.data;
        continue;
      }
      if (part.fieldname !== "file") {
        part.file.resume();
        throw new AppError("validation_failed", `body.${part.fieldname}: unexpected file; send the file as \`file\``);
      }
      const fileName = (part.filename ?? "").split(/[\\/]/).at(-1) ?? "";
      const parsedName = originalNameField.safeParse(fileName);
      if (!parsedName.success) {
        part.file.resume();
        throw fieldError("file's name", parsedName.error.issues);
      }
      const progress = { size: 0, head: Buffer.alloc(0), hash: createHash("sha256") };
      await blobs.putStream(blobKey, measured(part.file, maxBytes, progress));
      stored = {
        originalName: parsedName.data,
        mimeType: fileTypeOf(progress.head, parsedName.data),
        size: progress.size,
        sha256: progress.hash.digest("hex"),
      };
    }
  } catch (error) {
    await blobs.delete(blobKey);
    if (error instanceof AppError) throw error;
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    if (code === "FST_FILES_LIMIT") throw new AppError("validation_failed", "send exactly one file, as `file`");
    if (code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT")
      throw new AppError("validation_failed", "too many form fields: send `file` and `name`");
    throw new AppError("validation_failed", "the multipart body could not be read");
  }
  if (!stored) throw new AppError("validation_failed", "body.file: required (the file, as a file part)");
  return { ...stored, name };
}
