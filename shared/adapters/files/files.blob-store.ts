// Blobs as files in one directory (DATA_DIR/blobs by default). A blob is written to a temporary file in a
// `.partial` subdirectory, flushed to disk and renamed into place, so a reader never sees half of one and a
// crash leaves at most a partial file, which is removed when the store next opens after an hour.
import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { chmod, mkdir, open, opendir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  blobKeySchema,
  type BlobKey,
  type BlobListing,
  type BlobReader,
  type BlobStore,
  type ByteRange,
  type StoredBlob,
} from "../../blobs/blob-store.port.ts";

const PRIVATE_DIRECTORY = 0o700;
const PRIVATE_FILE = 0o600;
/** A partial file older than this belongs to no write still running. */
const PARTIAL_GRACE_MS = 60 * 60 * 1000;

const isMissing = (error: unknown): boolean => error instanceof Error && "code" in error && error.code === "ENOENT";

/** Reads blobs and never writes: what a query node is given. */
export class FilesBlobReader implements BlobReader {
  constructor(protected readonly directory: string) {}

  protected pathOf(key: BlobKey): string {
    return join(this.directory, blobKeySchema.parse(key));
  }

  async open(key: BlobKey, range?: ByteRange): Promise<StoredBlob | null> {
    const path = this.pathOf(key);
    try {
      const file = await open(path, "r");
      const { size } = await file.stat();
      const bounds = range ? { start: range.start, end: range.end } : {};
      return { size, stream: createReadStream(path, { fd: file, autoClose: true, ...bounds }) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }
}

export class FilesBlobStore extends FilesBlobReader implements BlobStore {
  private readonly partials: string;

  private constructor(directory: string) {
    super(directory);
    this.partials = join(directory, ".partial");
  }

  /** Opens (creating it 0700) the directory, and removes partial files a crashed write left behind. */
  static async create(directory: string, now: () => Date = () => new Date()): Promise<FilesBlobStore> {
    const store = new FilesBlobStore(directory);
    await mkdir(store.partials, { recursive: true, mode: PRIVATE_DIRECTORY });
    await chmod(directory, PRIVATE_DIRECTORY);
    await chmod(store.partials, PRIVATE_DIRECTORY);
    await store.removeLeftovers(new Date(now().getTime() - PARTIAL_GRACE_MS));
    return store;
  }

  async removeLeftovers(storedBefore: Date): Promise<number> {
    let removed = 0;
    // One name at a time, as list() reads: a crash-prone disk may hold many.
    for await (const entry of await opendir(this.partials)) {
      const path = join(this.partials, entry.name);
      const info = await stat(path).catch(() => null);
      if (info && info.mtimeMs < storedBefore.getTime()) {
        await rm(path, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  async put(key: BlobKey, bytes: Uint8Array): Promise<void> {
    await this.putStream(key, [bytes]);
  }

  async putStream(key: BlobKey, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<number> {
    const target = this.pathOf(key);
    const partial = join(this.partials, `${key}.${randomUUID()}`);
    const file = await open(partial, "wx", PRIVATE_FILE);
    let size = 0;
    try {
      // One chunk in hand at a time: each is written before the next is asked for.
      for await (const chunk of source) {
        await file.write(chunk);
        size += chunk.byteLength;
      }
      await file.sync();
    } catch (error) {
      await file.close();
      await rm(partial, { force: true });
      throw error;
    }
    await file.close();
    await rename(partial, target);
    await this.syncDirectory();
    return size;
  }

  /** The rename is durable only once the directory entry is. */
  private async syncDirectory(): Promise<void> {
    const directory = await open(this.directory, "r");
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  }

  async delete(key: BlobKey): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async *list(): AsyncIterable<BlobListing> {
    // Read in chunks as the sweep goes, not as one array of every name: the store may hold millions.
    for await (const entry of await opendir(this.directory)) {
      const key = blobKeySchema.safeParse(entry.name);
      if (!entry.isFile() || !key.success) continue;
      const info = await stat(join(this.directory, entry.name)).catch((error: unknown) => {
        if (isMissing(error)) return null;
        throw error;
      });
      if (info) yield { key: key.data, storedAt: info.mtime };
    }
  }

  async close(): Promise<void> {}
}
