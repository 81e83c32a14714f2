// The blob port in MongoDB GridFS (bucket `blobs`), for image bytes in the production stack. GridFS writes a
// file's chunks first and its files document last, so a reader finds a blob only once it is whole. Storing a
// key again uploads a new file and then removes the older ones of that name; a reader always takes the newest.
// Writes wait for a majority of the replica set. A delete removes the chunks first and the files document last
// (the driver's own delete does the reverse, and its chunk removal is not a retryable write), so a delete cut
// short leaves a listed record the next attempt finds again; it is retried until neither is left
// (verified-delete.ts). Chunks with no files document (an interrupted upload, a delete by an older release or
// another tool) are never read: removeLeftovers sweeps them once older than the grace period, a batch at a time.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { GridFSBucket, ObjectId, type Collection, type Db, type MongoClient } from "mongodb";
import { deleteVerified, DELETE_RETRY_DELAYS_MS } from "../../blobs/verified-delete.ts";
import {
  blobKeySchema,
  type BlobKey,
  type BlobListing,
  type BlobStore,
  type ByteRange,
  type StoredBlob,
} from "../../blobs/blob-store.port.ts";

const BUCKET = "blobs";
/** Chunk entries read per sweep batch (from the files_id index only: no chunk's bytes are read). */
const SWEEP_BATCH = 1_000;
const MAJORITY = { writeConcern: { w: "majority" } } as const;

type ChunkDoc = { _id: ObjectId; files_id: ObjectId; n: number };
type FileDoc = { _id: ObjectId };

interface FileEntry {
  readonly _id: ObjectId;
  readonly length: number;
  readonly uploadDate: Date;
}

export interface GridFsOptions {
  /** Pauses between attempts of a delete (tests shorten them). */
  readonly deleteRetryDelaysMs?: readonly number[];
  /** Chunk entries one sweep batch reads. */
  readonly sweepBatch?: number;
}

export class GridFsBlobStore implements BlobStore {
  private readonly bucket: GridFSBucket;
  private readonly files: Collection<FileDoc>;
  private readonly chunks: Collection<ChunkDoc>;

  /** When `client` is given, close() closes it: the store then owns its connection. */
  constructor(
    db: Db,
    private readonly client: MongoClient | null = null,
    private readonly options: GridFsOptions = {},
  ) {
    this.bucket = new GridFSBucket(db, { bucketName: BUCKET, writeConcern: { w: "majority" } });
    this.files = db.collection<FileDoc>(`${BUCKET}.files`);
    this.chunks = db.collection<ChunkDoc>(`${BUCKET}.chunks`);
  }

  /** Removes one stored version of a blob, chunks first, until neither its chunks nor its record are left. */
  private async remove(id: ObjectId, key: string): Promise<void> {
    await deleteVerified(
      `blob ${key} (GridFS file ${id.toHexString()})`,
      {
        remove: async () => {
          await this.chunks.deleteMany({ files_id: id }, MAJORITY);
          await this.files.deleteOne({ _id: id }, MAJORITY);
        },
        left: async () =>
          (await this.files.countDocuments({ _id: id }, { limit: 1 })) +
          (await this.chunks.countDocuments({ files_id: id }, { limit: 1 })),
      },
      this.options.deleteRetryDelaysMs ?? DELETE_RETRY_DELAYS_MS,
    );
  }

  private async versions(key: BlobKey): Promise<FileEntry[]> {
    const files = await this.bucket
      .find({ filename: blobKeySchema.parse(key) })
      .sort({ uploadDate: -1, _id: -1 })
      .toArray();
    return files.map((file) => ({ _id: file._id, length: file.length, uploadDate: file.uploadDate }));
  }

  async put(key: BlobKey, bytes: Uint8Array): Promise<void> {
    await this.putStream(key, [bytes]);
  }

  async putStream(key: BlobKey, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<number> {
    const filename = blobKeySchema.parse(key);
    const upload = this.bucket.openUploadStream(filename);
    let size = 0;
    const counted = async function* () {
      for await (const chunk of source) {
        size += chunk.byteLength;
        yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      }
    };
    try {
      // The upload stream writes a chunk document per 255 KiB as it fills, with backpressure to the source.
      await pipeline(Readable.from(counted()), upload);
    } catch (error) {
      // The files document is written last, so an aborted upload is never read; its chunks go now.
      await upload.abort().catch(() => undefined);
      throw error;
    }
    // The new bytes are stored whatever becomes of the older versions: one left behind is still listed under the
    // key (a reader takes the newest), so the key's next delete removes it.
    for (const older of (await this.versions(filename)).filter((file) => !file._id.equals(upload.id))) {
      await this.remove(older._id, filename).catch(() => undefined);
    }
    return size;
  }

  async open(key: BlobKey, range?: ByteRange): Promise<StoredBlob | null> {
    const [newest] = await this.versions(key);
    if (!newest) return null;
    // GridFS's end is exclusive; the port's is inclusive, as HTTP's is.
    const bounds = range ? { start: range.start, end: range.end + 1 } : {};
    return { size: newest.length, stream: this.bucket.openDownloadStream(newest._id, bounds) };
  }

  async delete(key: BlobKey): Promise<void> {
    for (const file of await this.versions(key)) await this.remove(file._id, key);
  }

  async removeLeftovers(storedBefore: Date): Promise<number> {
    // A chunk's files_id is made when its upload starts, so its time says how old the upload is. The walk goes
    // up the files_id index (covered: only ids are read), a batch of entries at a time, skipping each file's
    // further chunks; the files documents of a batch's ids are looked up in one query.
    const before = ObjectId.createFromTime(Math.floor(storedBefore.getTime() / 1000));
    const batch = this.options.sweepBatch ?? SWEEP_BATCH;
    let after: ObjectId | null = null;
    let removed = 0;
    for (;;) {
      const range: { $lt: ObjectId; $gt?: ObjectId } = after === null ? { $lt: before } : { $lt: before, $gt: after };
      const entries = await this.chunks
        .find({ files_id: range }, { projection: { _id: 0, files_id: 1 } })
        .sort({ files_id: 1, n: 1 })
        .limit(batch)
        .toArray();
      const ids = [...new Map(entries.map((entry) => [entry.files_id.toHexString(), entry.files_id])).values()];
      const last = ids.at(-1);
      if (last === undefined) return removed;
      const recorded = new Set(
        (await this.files.find({ _id: { $in: ids } }, { projection: { _id: 1 } }).toArray()).map((file) =>
          file._id.toHexString(),
        ),
      );
      const orphans = ids.filter((id) => !recorded.has(id.toHexString()));
      if (orphans.length > 0)
        removed += (await this.chunks.deleteMany({ files_id: { $in: orphans } }, MAJORITY)).deletedCount;
      if (entries.length < batch) return removed;
      after = last;
    }
  }

  async *list(): AsyncIterable<BlobListing> {
    const seen = new Set<string>();
    for await (const file of this.bucket.find({}).sort({ uploadDate: -1, _id: -1 })) {
      const key = blobKeySchema.safeParse(file.filename);
      if (!key.success || seen.has(key.data)) continue;
      seen.add(key.data);
      yield { key: key.data, storedAt: file.uploadDate };
    }
  }

  async close(): Promise<void> {
    await this.client?.close();
  }
}
