import { randomUUID } from "node:crypto";
import { readdir, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FilesBlobStore } from "../../../shared/adapters/files/files.blob-store.ts";
import { blobKeySchema } from "../../../shared/blobs/blob-store.port.ts";
import { blobStoreContract } from "../../contracts/blob-store.contract.ts";
import { tempDir } from "../../support/temp-dir.ts";

blobStoreContract("files under a directory", async () => {
  const dir = await tempDir();
  return { store: await FilesBlobStore.create(join(dir.path, "blobs")), cleanup: dir.remove };
});

describe("the files blob store", () => {
  it("keeps each blob readable by the service's user only, whatever the umask", async () => {
    const dir = await tempDir();
    const previous = process.umask(0o022);
    try {
      const store = await FilesBlobStore.create(join(dir.path, "blobs"));
      const key = blobKeySchema.parse(`${randomUUID()}.png`);
      await store.put(key, Buffer.from("bytes"));
      expect((await stat(join(dir.path, "blobs"))).mode & 0o777).toBe(0o700);
      expect((await stat(join(dir.path, "blobs", key))).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(previous);
      await dir.remove();
    }
  });

  it("never shows a write a crash interrupted, and clears its leftovers an hour later", async () => {
    const dir = await tempDir();
    const directory = join(dir.path, "blobs");
    await FilesBlobStore.create(directory);
    // What a process killed halfway through put() leaves: a partial file, nothing under the key.
    const key = blobKeySchema.parse(`${randomUUID()}.png`);
    const fresh = join(directory, ".partial", `${key}.${randomUUID()}`);
    const stale = join(directory, ".partial", `${key}.${randomUUID()}`);
    await writeFile(fresh, "half of it");
    await writeFile(stale, "half of it");
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(stale, twoHoursAgo, twoHoursAgo);

    const reopened = await FilesBlobStore.create(directory);
    expect(await reopened.open(key)).toBeNull();
    const listed = [];
    for await (const listing of reopened.list()) listed.push(listing.key);
    expect(listed).toEqual([]);
    expect(await readdir(join(directory, ".partial"))).toEqual([fresh.split("/").at(-1)]);
    await dir.remove();
  });
});
