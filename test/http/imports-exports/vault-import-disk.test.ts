// The disk as a shared resource: a vault import stores each linked file's bytes once, however many notes link it,
// and counts what it writes against the uncompressed limit and the owner's quota before writing. The shape of the
// measured attack (a small zip of many notes linking one file that compresses far), kept small.
import { randomBytes } from "node:crypto";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedBlobBytes } from "../../support/blob-files.ts";
import { TestServer } from "../../support/server.ts";
import { importZip } from "../../support/vault-zip.ts";

const MiB = 1024 * 1024;

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start({
    settings: { QUOTA_BLOB_BYTES_PER_OWNER: String(8 * MiB), IMPORT_ZIP_MAX_UNCOMPRESSED_BYTES: String(5 * MiB) },
  });
});
afterAll(async () => {
  await server.stop();
});

const storedBytes = (): Promise<number> => storedBlobBytes(server.dataDir);

/** `size` bytes that deflate about 25 times: a little noise in every kilobyte of zeros. */
function compressible(size: number): Uint8Array {
  const bytes = Buffer.alloc(size);
  for (let offset = 0; offset < size; offset += 1024) randomBytes(32).copy(bytes, offset);
  return bytes;
}

const notesLinking = (count: number, target: string): Record<string, Uint8Array> =>
  Object.fromEntries(
    Array.from({ length: count }, (_, index) => [
      `note-${index}.md`,
      Buffer.from(`Note ${index} cites [[${target}]].\n`),
    ]),
  );

describe("an import's linked bytes", () => {
  it("are stored once when 30 notes link one file: every note imports and the blobs grow by the file's size", async () => {
    const ann = await server.registered("ann");
    const file = compressible(3 * MiB);
    const zip = zipSync({ ...notesLinking(30, "dump.bin"), "dump.bin": file }, { level: 9 });
    expect(zip.byteLength).toBeLessThan(file.byteLength / 10);
    const before = await storedBytes();
    const reply = await importZip(ann, zip);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ pagesCreated: 30, attachmentsUploaded: 1, errors: [] });
    expect((await storedBytes()) - before).toBe(file.byteLength);
    // Every note links the one attachment, which serves the file.
    const pages = (await ann.get("/pages?limit=100")).body.data as Array<{ id: string }>;
    const links = new Set<string>();
    for (const page of pages)
      for (const [url] of (await ann.get(`/pages/${page.id}/content`)).text.matchAll(
        /\/api\/v1\/attachments\/[0-9a-f-]{36}/g,
      ))
        links.add(url);
    expect(links.size).toBe(1);
  });

  it("count against the uncompressed limit before they are written: a file that would pass it is not stored and its note is reported", async () => {
    const bob = await server.registered("bob");
    const zip = zipSync(
      {
        "a.md": Buffer.from("[[a.bin]]"),
        "b.md": Buffer.from("[[b.bin]]"),
        "a.bin": compressible(3 * MiB),
        "b.bin": compressible(3 * MiB),
      },
      { level: 9 },
    );
    const before = await storedBytes();
    const reply = await importZip(bob, zip);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ pagesCreated: 1, attachmentsUploaded: 1 });
    expect(reply.body.errors).toEqual([
      expect.stringMatching(
        /^"b\.md": skipped: "b\.bin" would take what this import reads and writes past 5242880 bytes$/,
      ),
    ]);
    expect((await storedBytes()) - before).toBe(3 * MiB);
  });
});
