// POST /imports/obsidian with a zip: a vault zipped by hand imports as its files sent as JSON do, an
// Idempotency-Key behaves as with JSON, and an archive that is unsafe to read (a zip bomb, too much to expand, too
// large, paths that escape, links) is refused whole with a 4xx, nothing imported and nothing left on disk.
import { createHash, randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { zipSync, type ZipOptions } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realisticVault } from "../../fixtures/realistic-vault.ts";
import { TestServer, type Client } from "../../support/server.ts";
import { importVault } from "../../support/vault-import.ts";
import { importZip, workspaceSnapshot } from "../../support/vault-zip.ts";

const MAX_ZIP_BYTES = 4 * 1024 * 1024;
const MAX_UNCOMPRESSED_BYTES = 2 * 1024 * 1024;

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start({
    settings: {
      IMPORT_ZIP_MAX_BYTES: String(MAX_ZIP_BYTES),
      IMPORT_ZIP_MAX_UNCOMPRESSED_BYTES: String(MAX_UNCOMPRESSED_BYTES),
    },
  });
});
afterAll(async () => {
  await server.stop();
});

const BINARY = /^(?!.*\.md$)/i;
const bytesOf = (path: string, content: string): Uint8Array =>
  BINARY.test(path) ? Buffer.from(content.replace(/^data:[^,]*,/, ""), "base64") : Buffer.from(content, "utf8");

type Entries = Record<string, Uint8Array | [Uint8Array, ZipOptions]>;

describe("a vault as a zip", () => {
  it("zipped by hand from outside its folder, with Obsidian's hidden files and macOS's additions, imports as its files sent as JSON", async () => {
    const files = [
      ...(await realisticVault()),
      { path: "attachments/unlinked.pdf", content: Buffer.from("%PDF-1.7\n%%EOF\n").toString("base64") },
    ];
    const entries: Entries = {
      "My Vault/": new Uint8Array(0),
      "My Vault/.obsidian/app.json": Buffer.from('{"attachmentFolderPath":"attachments"}'),
      "My Vault/.obsidian/plugins/calendar/main.js": Buffer.from("module.exports = {}"),
      "My Vault/.trash/Deleted.md": Buffer.from("a note Obsidian keeps in its trash"),
      "My Vault/.DS_Store": randomBytes(64),
      "__MACOSX/My Vault/._Home.md": randomBytes(64),
    };
    for (const file of files) entries[`My Vault/${file.path}`] = bytesOf(file.path, file.content);

    const fromJson = await server.registered("json");
    const byJson = await importVault(fromJson, files);
    expect(byJson.status, byJson.text).toBe(201);
    const fromZip = await server.registered("zip");
    const byZip = await importZip(fromZip, zipSync(entries));
    expect(byZip.status, byZip.text).toBe(201);

    const { errors: zipErrors, ...zipCounts } = byZip.body;
    const { errors: jsonErrors, ...jsonCounts } = byJson.body;
    expect(zipCounts).toEqual(jsonCounts);
    // The PDF, the SVG and the MP3 (linked from two notes) are one attachment each, as each image is one upload.
    expect(zipCounts).toMatchObject({ pagesCreated: 8, imagesUploaded: 3, attachmentsUploaded: 3 });
    expect(zipErrors).toEqual(jsonErrors);
    expect(zipErrors).toContain('"attachments/unlinked.pdf": skipped: no imported note links this file');
    expect(await workspaceSnapshot(fromZip)).toEqual(await workspaceSnapshot(fromJson));
  });

  it("inflates a file other than a note or image only when a note links it, streaming it into the attachment", async () => {
    // Random bytes stored as they are: 3 MB each; the import may read and write 4 MB, so the unlinked file, never
    // read, is not counted.
    const recording = Buffer.concat([
      Buffer.from("ID3"),
      Buffer.from([4, 0, 0, 0, 0, 0, 0]),
      randomBytes(3 * 1024 * 1024),
    ]);
    const unlinked = randomBytes(3 * 1024 * 1024);
    const zip = zipSync({
      "Talk.md": Buffer.from("Listen: ![[talk.mp3]]"),
      "files/talk.mp3": [recording, { level: 0 }],
      "files/old.bin": [unlinked, { level: 0 }],
    });
    expect(zip.length).toBeLessThan(MAX_ZIP_BYTES * 2);
    const bigger = await TestServer.start({
      settings: {
        IMPORT_ZIP_MAX_BYTES: String(16 * 1024 * 1024),
        IMPORT_ZIP_MAX_UNCOMPRESSED_BYTES: String(4 * 1024 * 1024),
      },
    });
    try {
      const user = await bigger.registered("ivy");
      const reply = await importZip(user, zip);
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({
        pagesCreated: 1,
        attachmentsUploaded: 1,
        errors: ['"files/old.bin": skipped: no imported note links this file'],
      });
      const [page] = (await user.get("/pages?limit=10")).body.data as Array<{ id: string }>;
      const [attachment] = (await user.get(`/pages/${page?.id ?? ""}/attachments`)).body.data as Array<{
        url: string;
        size: number;
        mimeType: string;
        sha256: string;
      }>;
      expect(attachment).toMatchObject({
        size: recording.length,
        mimeType: "audio/mpeg",
        sha256: createHash("sha256").update(recording).digest("hex"),
      });
      const cookie = user.credentials && "cookie" in user.credentials ? user.credentials.cookie : "";
      const served = await fetch(`${bigger.url}${attachment?.url ?? ""}`, {
        headers: { cookie: `app-auth.session_token=${cookie}` },
      });
      expect(Buffer.from(await served.arrayBuffer()).equals(recording)).toBe(true);
    } finally {
      await bigger.stop();
    }
  });

  it("reads names as zip tools write them: Windows' backslashes, macOS's decomposed accents", async () => {
    const zoe = await server.registered("zoe");
    const reply = await importZip(
      zoe,
      zipSync({ "Projets\\Café.md": Buffer.from("see [[Ne\u0301e]]"), "Ne\u0301e.md": Buffer.from("# Née") }),
    );
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ foldersCreated: 1, pagesCreated: 2, backlinksCreated: 1, errors: [] });
    const pages = await zoe.get("/pages?limit=10");
    expect((pages.body.data as Array<{ title: string }>).map((page) => page.title).sort()).toEqual(["Café", "Née"]);
  });

  it("answers a retry with the same Idempotency-Key and zip with the first answer, and 422 for the same key with another zip", async () => {
    const kim = await server.registered("kim");
    const zip = zipSync({ "Plan.md": Buffer.from("# Plan\n\nSee [[Budget]]"), "Budget.md": Buffer.from("# Budget") });
    const first = await importZip(kim, zip, { "idempotency-key": "vault-1" });
    expect(first.status, first.text).toBe(201);
    const again = await importZip(kim, zip, { "idempotency-key": "vault-1" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    const other = await importZip(kim, zipSync({ "Other.md": Buffer.from("x") }), { "idempotency-key": "vault-1" });
    expect(other.status, other.text).toBe(422);
    expect(other.body.error?.code).toBe("idempotency_key_mismatch");
    expect((await kim.get("/pages?limit=10")).body.data).toHaveLength(2);
  });
});

async function pageCount(user: Client): Promise<number> {
  const reply = await user.get("/pages?limit=10");
  return (reply.body.data as unknown[]).length;
}

async function expectRefused(zip: Uint8Array, status: number, code: string, message: RegExp): Promise<void> {
  const user = await server.registered("refused");
  const reply = await importZip(user, zip);
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body.error?.code).toBe(code);
  expect(reply.body.error?.message).toMatch(message);
  expect(await pageCount(user)).toBe(0);
  // The spool directory is made by the first zip spooled; nothing stays in it.
  expect(await readdir(join(server.dataDir, "spool")).catch(() => [])).toEqual([]);
}

describe("an archive unsafe to read is refused whole", () => {
  it("an entry expanding more than IMPORT_ZIP_MAX_RATIO times its size (a zip bomb): 400", async () => {
    const zip = zipSync({ "Fine.md": Buffer.from("fine"), "bomb.md": new Uint8Array(2_000_000) }, { level: 9 });
    expect(zip.byteLength).toBeLessThan(20_000);
    await expectRefused(
      zip,
      400,
      "validation_failed",
      /^body: entry "bomb\.md" expands \d+ times its compressed size, more than 100 \(IMPORT_ZIP_MAX_RATIO\): refused as a zip bomb$/,
    );
  });

  it("notes and images expanding past IMPORT_ZIP_MAX_UNCOMPRESSED_BYTES in all: 413", async () => {
    const images: Entries = {};
    for (let index = 0; index < 3; index += 1)
      images[`attachments/noise-${index}.png`] = [randomBytes(800_000), { level: 0 }];
    await expectRefused(
      zipSync({ "Note.md": Buffer.from("![[noise-0.png]]"), ...images }),
      413,
      "payload_too_large",
      /IMPORT_ZIP_MAX_UNCOMPRESSED_BYTES/,
    );
  });

  it("a zip larger than IMPORT_ZIP_MAX_BYTES: 413, whether its length is declared or not", async () => {
    const zip = zipSync({ "video.mp4": [randomBytes(MAX_ZIP_BYTES + 1024), { level: 0 }] });
    await expectRefused(zip, 413, "payload_too_large", /IMPORT_ZIP_MAX_BYTES/);
    const user = await server.registered("chunked");
    const chunks = Array.from({ length: Math.ceil(zip.byteLength / 65_536) }, (_, index) =>
      zip.subarray(index * 65_536, (index + 1) * 65_536),
    );
    // No Content-Length: the body is sent in chunks (Node's fetch needs `duplex` for a streamed body).
    const init: RequestInit & { duplex: "half" } = {
      method: "POST",
      headers: {
        "content-type": "application/zip",
        cookie: `app-auth.session_token=${user.credentials && "cookie" in user.credentials ? user.credentials.cookie : ""}`,
      },
      body: new ReadableStream({
        pull(controller) {
          const chunk = chunks.shift();
          if (chunk) controller.enqueue(chunk);
          else controller.close();
        },
      }),
      duplex: "half",
    };
    const response = await fetch(`${server.url}/api/v1/imports/obsidian`, init);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
    expect(await pageCount(user)).toBe(0);
  });

  it("a path that climbs out with '..': 400", async () => {
    await expectRefused(
      zipSync({ "Fine.md": Buffer.from("fine"), "../../outside.md": Buffer.from("x") }),
      400,
      "validation_failed",
      /^body: entry "\.\.\/\.\.\/outside\.md" has a path that climbs out of the archive with '\.\.'/,
    );
  });

  it("an absolute path: 400", async () => {
    await expectRefused(
      zipSync({ "Fine.md": Buffer.from("fine"), "/etc/cron.d/evil.md": Buffer.from("x") }),
      400,
      "validation_failed",
      /^body: entry "\/etc\/cron\.d\/evil\.md" has an absolute path/,
    );
    await expectRefused(
      zipSync({ "C:\\Windows\\evil.md": Buffer.from("x") }),
      400,
      "validation_failed",
      /has an absolute path/,
    );
  });

  it("a symbolic link: 400", async () => {
    const link: [Uint8Array, ZipOptions] = [Buffer.from("/etc/passwd"), { os: 3, attrs: (0o120777 << 16) >>> 0 }];
    await expectRefused(
      zipSync({ "Fine.md": Buffer.from("fine"), "passwd.md": link }),
      400,
      "validation_failed",
      /^body: entry "passwd\.md" is a symbolic link/,
    );
  });

  it("more files than an import takes (5,000), as the JSON form: 400", async () => {
    const entries: Entries = {};
    for (let index = 0; index <= 5_000; index += 1) entries[`n${index}.md`] = Buffer.from("x");
    await expectRefused(
      zipSync(entries),
      400,
      "validation_failed",
      /^body: the archive holds 5001 files; an import takes at most 5000$/,
    );
  });

  it("a body that is not a zip: 400", async () => {
    await expectRefused(Buffer.from("not a zip at all"), 400, "validation_failed", /not a zip archive/);
  });
});
