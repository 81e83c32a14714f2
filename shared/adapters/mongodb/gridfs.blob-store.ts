// The blob port in MongoDB GridFS (bucket `blobs`), for image bytes in the production stack. GridFS writes a
// file's chunks first and its files document last, so a reader finds a blob only once it is whole. Storing a
// key again uploads a new file and then removes the older ones of that name; a reader always takes the newest.
// Writes wait for a majority of the replica set. Chunks an interrupted upload left behind belong to no files
// document and are never read; the orphan sweep of images removes whole blobs without a record.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { GridFSBucket, type Db, type MongoClient, type ObjectId } from "mongodb";
import { blobKeySchema, type BlobKey, type BlobListing, type BlobStore, type ByteRange, type StoredBlob } from "../../blobs/blob-store.port.ts";

const BUCKET = "blobs";

interface FileEntry {
  readonly _id: ObjectId;
  readonly length: number;
  readonly uploadDate: Date;
}

export class GridFsBlobStore implements BlobStore {
  private readonly bucket: GridFSBucket;

  /** When `client` is given, close() closes it: the store then owns its connection. */
  constructor(
    db: Db,
    private readonly client: MongoClient | null = null,
  ) {
    this.bucket = new GridFSBucket(db, { bucketName: BUCKET, writeConcern: { w: "majority" } });
  }

  private async versions(key: BlobKey): Promise<FileEntry[]> {
    const files = await this.bucket.find({ filename: blobKeySchema.parse(key) }).sort({ uploadDate: -1, _id: -1 }).toArray();
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
    for (const older of (await this.versions(filename)).filter((file) => !file._id.equals(upload.id))) {
      await this.bucket.delete(older._id).catch(() => undefined);
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
    for (const file of await this.versions(key)) await this.bucket.delete(file._id).catch(() => undefined);
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
