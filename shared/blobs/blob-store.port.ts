// The blob port: image bytes (and any other opaque bytes) kept outside the event log. The command API writes
// through a BlobStore; a query node is given only a BlobReader. Files under DATA_DIR are the embedded adapter.
import type { Readable } from "node:stream";
import { z } from "zod";

/** A blob's name: lower-case letters, digits, dots and dashes, as a file name on any system would allow. */
export const blobKeySchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9.-]{0,127}$/,
    "a blob key is 1 to 128 of a-z, 0-9, '.' and '-', not starting with '.' or '-'",
  );
export type BlobKey = z.infer<typeof blobKeySchema>;

export interface StoredBlob {
  readonly size: number;
  /** The bytes, from the first; the caller consumes or destroys it. */
  readonly stream: Readable;
}

/** Bytes `start` to `end` of a blob, both included (as an HTTP Range names them). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

export interface BlobReader {
  /**
   * The blob under `key`, or null when there is none. Never a partly written blob. With `range`, the stream
   * holds only those bytes (`size` stays the whole blob's); the range must lie inside the blob.
   */
  open(key: BlobKey, range?: ByteRange): Promise<StoredBlob | null>;
}

export interface BlobListing {
  readonly key: BlobKey;
  /** When the blob was stored: an orphan sweep leaves recent ones alone. */
  readonly storedAt: Date;
}

export interface BlobStore extends BlobReader {
  /**
   * Stores `bytes` under `key`, replacing what was there. Durable once the promise resolves; a reader sees
   * either the whole blob or none (a crash midway leaves no blob under the key).
   */
  put(key: BlobKey, bytes: Uint8Array): Promise<void>;
  /**
   * Stores what `source` yields under `key`, as `put` does, holding only a chunk at a time. When `source`
   * fails (a client hung up, a limit was passed) nothing is stored under the key and the error is thrown.
   * Returns the number of bytes stored.
   */
  putStream(key: BlobKey, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<number>;
  /**
   * Removes the blob, every byte of it: resolves once nothing of it is stored (retrying a removal cut short),
   * throws when that cannot be seen. Removing one that is not there is no error.
   */
  delete(key: BlobKey): Promise<void>;
  /**
   * Removes bytes that belong to no blob (a write or a delete cut short: GridFS chunks without their file
   * record, partial files) stored before `storedBefore`, so never a write still under way; in bounded batches.
   * Never touches a blob. Returns how many leftovers were removed.
   */
  removeLeftovers(storedBefore: Date): Promise<number>;
  /** Every stored blob, in no particular order. */
  list(): AsyncIterable<BlobListing>;
  close(): Promise<void>;
}
