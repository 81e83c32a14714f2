// A zip sent to POST /imports/obsidian, written to a file as it arrives: a zip is read from its end (the central
// directory lists the entries and says which are links), so it must be whole before any entry can be trusted, and
// holding it in memory would cost its size. The file is unlinked as soon as it is open, so nothing is left behind
// whatever happens to the process; its SHA-256 is taken on the way, to stand for the body in an Idempotency-Key's
// fingerprint.
import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, rm, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { PRIVATE_DIRECTORY } from "../../../shared/config/config.ts";
import { AppError } from "../../../shared/errors/app-error.ts";

export interface SpooledZip {
  /** Open for reading; the caller closes it. */
  readonly file: FileHandle;
  readonly size: number;
  readonly sha256: string;
}

/** Closing the connection is how the rest of an oversized body goes unread. */
export const zipTooLarge = (maxBytes: number): AppError =>
  new AppError("payload_too_large", `body: the zip is larger than ${maxBytes} bytes (IMPORT_ZIP_MAX_BYTES)`, {
    connection: "close",
  });

/** The body's chunks; a body cut short (the client went away) is the request's fault, not the server's. */
async function* received(body: Readable): AsyncGenerator<Uint8Array> {
  // Leaving the loop early must not destroy the request: the 413 still has to be answered on its socket.
  const chunks = body.iterator({ destroyOnReturn: false });
  for (;;) {
    let next: IteratorResult<unknown>;
    try {
      next = await chunks.next();
    } catch {
      throw new AppError("validation_failed", "body: the zip was not received whole");
    }
    if (next.done) return;
    yield next.value instanceof Uint8Array ? next.value : Buffer.from(String(next.value));
  }
}

/**
 * Writes `body` to a fresh file in `directory`, one chunk at a time (the request is read no faster than the disk
 * takes it). Past `maxBytes` it stops reading and throws 413; the rest of the body is never read.
 */
export async function spoolZip(body: Readable, options: { directory: string; maxBytes: number }): Promise<SpooledZip> {
  await mkdir(options.directory, { recursive: true, mode: PRIVATE_DIRECTORY });
  const path = join(options.directory, `import-${randomUUID()}.zip`);
  const file = await open(path, "wx+", 0o600);
  try {
    await rm(path, { force: true });
    const hash = createHash("sha256");
    let size = 0;
    for await (const bytes of received(body)) {
      size += bytes.byteLength;
      if (size > options.maxBytes) throw zipTooLarge(options.maxBytes);
      hash.update(bytes);
      await file.write(bytes);
    }
    return { file, size, sha256: hash.digest("hex") };
  } catch (error) {
    await file.close();
    await rm(path, { force: true });
    throw error;
  }
}
