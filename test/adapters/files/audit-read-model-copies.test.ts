// The audit copies under DATA_DIR/audit, over real files: an erasure deletes each copy (with its WAL and shared
// memory files) whose bytes mention what it erases, wherever in the file, and leaves the others.
import { existsSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuditReadModelCopies } from "../../../shared/adapters/files/audit-read-model-copies.ts";
import { tempDir } from "../../support/temp-dir.ts";

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => dir.remove());

const MIB = 1024 * 1024;
/** A file of `size` filler bytes with `text` written at `offset`. */
function fileWith(path: string, size: number, text: string, offset: number): void {
  const bytes = Buffer.alloc(size, "x");
  bytes.write(text, offset, "latin1");
  writeFileSync(path, bytes);
}

describe("audit copies of the read models", () => {
  it("deletes the copies that mention a needle, across the reader's chunk boundary or in the WAL, and keeps the others", async () => {
    const audit = join(dir.path, "audit");
    await mkdir(audit);
    const id = "6f1c0b2e-9a1d-4c3e-8b7a-0d2c4e6f8a1b";
    const across = join(audit, "across.sqlite");
    fileWith(across, 3 * MIB, id.toUpperCase(), MIB - 10);
    const inWal = join(audit, "in-wal.sqlite");
    fileWith(inWal, 1000, "nothing here", 0);
    fileWith(`${inWal}-wal`, 1000, id, 500);
    writeFileSync(`${inWal}-shm`, "shared memory");
    const other = join(audit, "other.sqlite");
    fileWith(other, 2 * MIB, "a9f3e2d1-0000-4000-8000-000000000000", MIB - 5);
    const notACopy = join(audit, "notes.txt");
    writeFileSync(notACopy, id);

    expect(await new AuditReadModelCopies(audit).eraseMentioning([id, ""])).toBe(2);
    expect([across, inWal, `${inWal}-wal`, `${inWal}-shm`].filter((path) => existsSync(path))).toEqual([]);
    expect(existsSync(other)).toBe(true);
    expect(existsSync(notACopy)).toBe(true);
  });

  it("finds nothing to delete where no audit was ever written, or when asked for nothing", async () => {
    expect(await new AuditReadModelCopies(join(dir.path, "audit")).eraseMentioning(["anything"])).toBe(0);
    expect(await new AuditReadModelCopies(dir.path).eraseMentioning([])).toBe(0);
  });
});
