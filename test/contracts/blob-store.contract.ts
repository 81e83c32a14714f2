// The BlobStore contract: every adapter (files under DATA_DIR, GridFS, ...) must pass these. Each test gets a
// store of its own from the factory; keys are random so a shared server's leftovers cannot interfere.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { buffer } from "node:stream/consumers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BlobKey, blobKeySchema, type BlobStore } from "../../shared/blobs/blob-store.port.ts";

export type BlobStoreFactory = () => Promise<{ store: BlobStore; cleanup: () => Promise<void> }>;

const newKey = (): BlobKey => blobKeySchema.parse(`${randomUUID()}.png`);

async function readAll(store: BlobStore, key: BlobKey): Promise<Buffer | null> {
  const blob = await store.open(key);
  return blob ? buffer(blob.stream) : null;
}

async function keysOf(store: BlobStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const listing of store.list()) keys.push(listing.key);
  return keys;
}

export function blobStoreContract(name: string, factory: BlobStoreFactory): void {
  describe(`BlobStore contract: ${name}`, () => {
    let store: BlobStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await factory());
    });
    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    it("gives back the bytes it stored, with their size", async () => {
      const key = newKey();
      const bytes = randomBytes(300_000);
      await store.put(key, bytes);
      const blob = await store.open(key);
      expect(blob?.size).toBe(bytes.length);
      expect(blob ? (await buffer(blob.stream)).equals(bytes) : false).toBe(true);
    });

    it("stores an empty blob as empty, not as missing", async () => {
      const key = newKey();
      await store.put(key, new Uint8Array());
      expect((await readAll(store, key))?.length).toBe(0);
    });

    it("answers null for a key never stored", async () => {
      expect(await store.open(newKey())).toBeNull();
    });

    it("replaces a blob stored again under the same key", async () => {
      const key = newKey();
      await store.put(key, Buffer.from("first"));
      await store.put(key, Buffer.from("second, longer"));
      expect((await readAll(store, key))?.toString()).toBe("second, longer");
    });

    it("lists what it holds with when it was stored, and forgets what was deleted", async () => {
      const [kept, removed] = [newKey(), newKey()];
      const before = Date.now();
      await store.put(kept, Buffer.from("kept"));
      await store.put(removed, Buffer.from("removed"));
      await store.delete(removed);
      const listings = [];
      for await (const listing of store.list()) listings.push(listing);
      const keys = listings.map((listing) => listing.key);
      expect(keys).toContain(kept);
      expect(keys).not.toContain(removed);
      const storedAt = listings.find((listing) => listing.key === kept)?.storedAt.getTime() ?? 0;
      // File systems keep times coarser than Date.now(): a second's slack either way.
      expect(Math.abs(storedAt - before)).toBeLessThan(60_000);
      expect(await store.open(removed)).toBeNull();
    });

    it("deletes a key that is not there without complaint", async () => {
      await expect(store.delete(newKey())).resolves.toBeUndefined();
    });

    it("deletes a blob whole: stored again under the same key afterwards, only the new bytes come back", async () => {
      const key = newKey();
      await store.putStream(key, [randomBytes(600_000)]);
      await store.delete(key);
      expect(await store.open(key)).toBeNull();
      await store.put(key, Buffer.from("new"));
      expect((await readAll(store, key))?.toString()).toBe("new");
      expect((await keysOf(store)).filter((listed) => listed === key)).toHaveLength(1);
    });

    it("never removes a stored blob when it sweeps its leftovers, however old the blob", async () => {
      const blobs = [
        { key: newKey(), bytes: randomBytes(300_000) },
        { key: newKey(), bytes: Buffer.alloc(0) },
      ];
      for (const { key, bytes } of blobs) await store.put(key, bytes);
      // A cut-off in the future takes in every byte stored so far: only bytes of no blob may go.
      expect(await store.removeLeftovers(new Date(Date.now() + 60 * 60 * 1000))).toBe(0);
      for (const { key, bytes } of blobs) expect((await readAll(store, key))?.equals(bytes)).toBe(true);
      expect(await keysOf(store)).toEqual(expect.arrayContaining(blobs.map(({ key }) => key)));
    });

    it("keeps concurrent writes to different keys apart", async () => {
      const blobs = Array.from({ length: 20 }, () => ({ key: newKey(), bytes: randomBytes(10_000) }));
      await Promise.all(blobs.map(({ key, bytes }) => store.put(key, bytes)));
      for (const { key, bytes } of blobs) expect((await readAll(store, key))?.equals(bytes)).toBe(true);
      expect(await keysOf(store)).toEqual(expect.arrayContaining(blobs.map(({ key }) => key)));
    });

    it("stores a stream of chunks as one blob and says how many bytes it stored", async () => {
      const key = newKey();
      const chunks = Array.from({ length: 40 }, () => randomBytes(7_000));
      const stored = await store.putStream(
        key,
        (async function* () {
          yield* chunks;
        })(),
      );
      expect(stored).toBe(280_000);
      expect((await readAll(store, key))?.equals(Buffer.concat(chunks))).toBe(true);
    });

    it("stores nothing under the key when the stream fails midway", async () => {
      const key = newKey();
      const failing = (async function* () {
        yield randomBytes(100_000);
        throw new Error("the client hung up");
      })();
      await expect(store.putStream(key, failing)).rejects.toThrow("the client hung up");
      expect(await store.open(key)).toBeNull();
      expect(await keysOf(store)).not.toContain(key);
    });

    it("streams a blob larger than 16 MB in and out (more than one document's worth), and reads a range of it", async () => {
      const key = newKey();
      const MB = 1024 * 1024;
      // 17 MB made of a repeated 1 MB block whose first bytes name its index: cheap to make, easy to check.
      const block = (index: number) => {
        const bytes = Buffer.alloc(MB, index % 251);
        bytes.writeUInt32BE(index, 0);
        return bytes;
      };
      const stored = await store.putStream(
        key,
        (async function* () {
          for (let index = 0; index < 17; index += 1) yield block(index);
        })(),
      );
      expect(stored).toBe(17 * MB);
      const blob = await store.open(key);
      expect(blob?.size).toBe(17 * MB);
      let seen = 0;
      const hash = createHash("sha256");
      for await (const chunk of blob?.stream ?? []) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
        hash.update(bytes);
        seen += bytes.length;
      }
      expect(seen).toBe(17 * MB);
      const expected = createHash("sha256");
      for (let index = 0; index < 17; index += 1) expected.update(block(index));
      expect(hash.digest("hex")).toBe(expected.digest("hex"));
      const ranged = await store.open(key, { start: 16 * MB - 2, end: 16 * MB + 5 });
      const part = ranged ? await buffer(ranged.stream) : Buffer.alloc(0);
      expect(part).toEqual(Buffer.concat([block(15).subarray(MB - 2), block(16).subarray(0, 6)]));
    });

    it("reads a range of a blob, both ends included", async () => {
      const key = newKey();
      const bytes = randomBytes(5_000);
      await store.put(key, bytes);
      const blob = await store.open(key, { start: 10, end: 19 });
      expect(blob?.size).toBe(5_000);
      expect(blob ? (await buffer(blob.stream)).equals(bytes.subarray(10, 20)) : false).toBe(true);
    });

    it("refuses a key that is not a plain name", async () => {
      await expect(store.put(blobKeySchema.parse("ok"), Buffer.from("x"))).resolves.toBeUndefined();
      for (const bad of ["../escape", "a/b", ".hidden", ""]) {
        // The type says BlobKey; a caller that forged one still cannot leave the store.
        await expect(store.put(bad, Buffer.from("x"))).rejects.toThrow();
      }
    });
  });
}
