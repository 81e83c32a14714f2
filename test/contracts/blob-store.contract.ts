// The BlobStore contract: every adapter (files under DATA_DIR, GridFS, ...) must pass these. Each test gets a
// store of its own from the factory; keys are random so a shared server's leftovers cannot interfere.
import { randomBytes, randomUUID } from "node:crypto";
import { buffer } from "node:stream/consumers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BlobKey, BlobStore } from "../../shared/blobs/blob-store.port.ts";
import { blobKeySchema } from "../../shared/blobs/blob-store.port.ts";

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

    it("keeps concurrent writes to different keys apart", async () => {
      const blobs = Array.from({ length: 20 }, () => ({ key: newKey(), bytes: randomBytes(10_000) }));
      await Promise.all(blobs.map(({ key, bytes }) => store.put(key, bytes)));
      for (const { key, bytes } of blobs) expect((await readAll(store, key))?.equals(bytes)).toBe(true);
      expect(await keysOf(store)).toEqual(expect.arrayContaining(blobs.map(({ key }) => key)));
    });

    it("refuses a key that is not a plain name", async () => {
      await expect(store.put(blobKeySchema.parse("ok"), Buffer.from("x"))).resolves.toBeUndefined();
      for (const bad of ["../escape", "a/b", ".hidden", ""]) {
        // The type says BlobKey; a caller that forged one still cannot leave the store.
        await expect(store.put(bad as BlobKey, Buffer.from("x"))).rejects.toThrow();
      }
    });
  });
}
