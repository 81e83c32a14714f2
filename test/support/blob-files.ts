// The files of a server's blob store (DATA_DIR/blobs) as a test looks at them from outside the service.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/** Bytes in the blob store: the sum of its files' sizes (what is being written, under .partial, left out). */
export async function storedBlobBytes(dataDir: string): Promise<number> {
  const dir = join(dataDir, "blobs");
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
  const sizes = await Promise.all(names.map(async (name) => (await stat(join(dir, name))).size));
  return sizes.reduce((total, size) => total + size, 0);
}
