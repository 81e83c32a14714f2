// The blob-store contract on real MongoDB GridFS (MONGODB_URL, or a container when a runtime answers), and what
// only GridFS has: a delete made of two writes, verified, and chunks left without their file record swept.
import { randomBytes, randomUUID } from "node:crypto";
import { buffer } from "node:stream/consumers";
import { MongoClient, ObjectId, type Db } from "mongodb";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { GridFsBlobStore } from "../../../shared/adapters/mongodb/gridfs.blob-store.ts";
import { blobKeySchema } from "../../../shared/blobs/blob-store.port.ts";
import { blobStoreContract } from "../../contracts/blob-store.contract.ts";
import { mongoDbServer, reportSkip } from "../../support/production-servers.ts";

const server = await mongoDbServer();
const skipped = reportSkip("GridFS blob store contract", server);
afterAll(async () => {
  if (!("skip" in server)) await server.stop();
});

describe.skipIf(skipped)("GridFS", () => {
  if ("skip" in server) return;
  blobStoreContract("GridFS", async () => {
    const client = await MongoClient.connect(server.url);
    // A database per test: the listing test sees only its own blobs.
    const db = client.db(`blobs-${randomUUID()}`);
    return { store: new GridFsBlobStore(db, client), cleanup: async () => undefined };
  });
});

describe.skipIf(skipped)("GridFS deletes and leftovers", () => {
  if ("skip" in server) return;
  const HOUR = 60 * 60 * 1000;
  const key = () => blobKeySchema.parse(`${randomUUID()}.attachment`);
  let client: MongoClient;
  let db: Db;
  let store: GridFsBlobStore;
  beforeEach(async () => {
    client = await MongoClient.connect(server.url);
    db = client.db(`blobs-${randomUUID()}`);
    store = new GridFsBlobStore(db, null, { deleteRetryDelaysMs: [0, 0], sweepBatch: 2 });
  });
  afterEach(async () => {
    await db.dropDatabase();
    await client.close();
  });
  const files = () => db.collection<{ _id: ObjectId; filename: string }>("blobs.files");
  const chunks = () => db.collection<{ _id: ObjectId; files_id: ObjectId; n: number; data: Buffer }>("blobs.chunks");
  const fileIdOf = async (name: string): Promise<ObjectId> => {
    const file = await files().findOne({ filename: name });
    if (!file) throw new Error(`no file record for ${name}`);
    return file._id;
  };

  it("removes a deleted blob's file record and every one of its chunks", async () => {
    const name = key();
    await store.put(name, randomBytes(600_000));
    const id = await fileIdOf(name);
    expect(await chunks().countDocuments({ files_id: id })).toBe(3);
    await store.delete(name);
    expect(await files().countDocuments({ _id: id })).toBe(0);
    expect(await chunks().countDocuments({ files_id: id })).toBe(0);
  });

  it("finishes a delete cut short after the chunks went: the record left behind is still listed and goes with the next delete", async () => {
    const name = key();
    await store.put(name, randomBytes(300_000));
    const id = await fileIdOf(name);
    await chunks().deleteMany({ files_id: id });
    const listed = [];
    for await (const listing of store.list()) listed.push(listing.key);
    expect(listed).toContain(name);
    await store.delete(name);
    expect(await files().countDocuments({})).toBe(0);
  });

  it("sweeps chunks whose file record is gone once older than the cut-off, batch by batch, and never a blob's or a recent upload's", async () => {
    const kept = key();
    const bytes = randomBytes(600_000);
    await store.put(kept, bytes);
    // What a delete cut short the driver's way leaves (the record gone first, the chunks not), two hours ago, for
    // three files of two chunks each; and an upload under way (chunks, no record yet), started just now.
    const old = Math.floor((Date.now() - 2 * HOUR) / 1000);
    const orphans = [ObjectId.createFromTime(old), ObjectId.createFromTime(old + 1), ObjectId.createFromTime(old + 2)];
    const underWay = new ObjectId();
    for (const filesId of [...orphans, underWay]) {
      await chunks().insertMany(
        [0, 1].map((n) => ({ _id: new ObjectId(), files_id: filesId, n, data: Buffer.alloc(10) })),
      );
    }
    // Batches of two chunk entries: the sweep walks on past the first batch.
    expect(await store.removeLeftovers(new Date(Date.now() - HOUR))).toBe(6);
    expect(await chunks().countDocuments({ files_id: { $in: orphans } })).toBe(0);
    expect(await chunks().countDocuments({ files_id: underWay })).toBe(2);
    const blob = await store.open(kept);
    expect(blob ? (await buffer(blob.stream)).equals(bytes) : false).toBe(true);
    // Run again: nothing left to remove.
    expect(await store.removeLeftovers(new Date(Date.now() - HOUR))).toBe(0);
  });
});
