// The audit stores under DATA_DIR/audit as read-model copies: an erasure reads each SQLite file, its WAL
// included, in bounded chunks (a copy may be large) and deletes the file with its -wal and -shm when its bytes
// mention what is erased. Ids and addresses are stored as plain text, so a copy that holds anything of the
// erased person or item holds its id. A directory that does not exist holds no copy.
import { open, opendir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { ReadModelCopies } from "../../erasure/read-model-copies.port.ts";

/** Where in DATA_DIR `npm run replay -- --until` writes its copies unless told otherwise. */
export const AUDIT_DIRECTORY = "audit";

const CHUNK_BYTES = 1024 * 1024;
const SIDE_FILES = ["-wal", "-shm", "-journal"];

/** Whether the file's bytes hold one of the lower-cased needles; a chunk keeps the end of the one before. */
async function mentions(path: string, needles: readonly string[]): Promise<boolean> {
  const overlap = Math.max(...needles.map((needle) => needle.length)) - 1;
  let handle;
  try {
    handle = await open(path, "r");
  } catch {
    return false; // gone meanwhile, or never written
  }
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let carried = "";
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) return false;
      const text = carried + buffer.subarray(0, bytesRead).toString("latin1").toLowerCase();
      if (needles.some((needle) => text.includes(needle))) return true;
      carried = overlap > 0 ? text.slice(-overlap) : "";
    }
  } finally {
    await handle.close();
  }
}

export class AuditReadModelCopies implements ReadModelCopies {
  constructor(private readonly directory: string) {}

  async eraseMentioning(needles: readonly string[]): Promise<number> {
    const wanted = needles.filter((needle) => needle.length > 0).map((needle) => needle.toLowerCase());
    if (wanted.length === 0) return 0;
    let entries;
    try {
      entries = await opendir(this.directory);
    } catch {
      return 0;
    }
    const copies: string[] = [];
    for await (const entry of entries)
      if (entry.isFile() && entry.name.endsWith(".sqlite")) copies.push(join(this.directory, entry.name));
    let erased = 0;
    for (const copy of copies) {
      const files = [copy, ...SIDE_FILES.map((suffix) => `${copy}${suffix}`)];
      let found = false;
      for (const file of files) found = found || (await mentions(file, wanted));
      if (!found) continue;
      for (const file of files) await rm(file, { force: true });
      erased += 1;
    }
    return erased;
  }
}
