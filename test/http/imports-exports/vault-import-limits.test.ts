// Importing an Obsidian vault within bounds: huge notes, hostile frontmatter, refused folder names, a note too complex to parse.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyEncryptionKeyFor } from "../../../shared/erasure/key-encryption-key.ts";
import { derivedId, importScopes } from "../../../shared/imports/import-ids.ts";
import { pageStream } from "../../../shared/pages/page.decider.ts";
import { aliasBomb } from "../../support/yaml-bomb.ts";
import { TestServer } from "../../support/server.ts";
import { contentOf, importVault, resolve } from "../../support/vault-import.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

describe("bounded imports", () => {
  it("rewrites a note of 45,000 links in one pass, and skips it when the rewritten page would exceed 500,000 characters", async () => {
    const lee = await server.registered("lee");
    const links = Array.from({ length: 45_000 }, () => "[[T]]").join(" ");
    const reply = await importVault(lee, [
      { path: "T.md", content: "target" },
      { path: "Many.md", content: links },
      { path: "Some.md", content: Array.from({ length: 100 }, () => "[[T]]").join(" ") },
    ]);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ pagesCreated: 2, backlinksCreated: 100 });
    expect(reply.body.errors).toEqual([
      expect.stringMatching(
        /^"Many\.md": skipped: with its links rewritten it is \d+ characters; a page holds at most 500000$/,
      ),
    ]);
    expect(await resolve(lee, "Many")).toEqual([]);
    expect((await contentOf(lee, "Some")).length).toBeLessThan(500_000);
  });

  it("answers /healthz while a large import runs", async () => {
    const max = await server.registered("max");
    const key = randomUUID();
    const files = Array.from({ length: 400 }, (_, index) => ({
      path: `n${index}.md`,
      content: `note ${index} links [[n${(index + 1) % 400}]]`,
    }));
    let finished = false;
    const running = importVault(max, files, { "idempotency-key": key }).then((reply) => {
      finished = true;
      return reply;
    });
    // Once the first page is written the import is under way: /healthz must answer before it ends.
    const kek = keyEncryptionKeyFor(server.internals.config, { createInDataDir: false });
    const firstPage = pageStream(
      derivedId(
        importScopes((scope) => kek.importScopeHash(scope), { ownerId: max.id, folderId: null }, null).vault,
        "page",
        "n0.md",
      ),
    );
    const deadline = Date.now() + 60_000;
    while (
      (await server.internals.eventStore.read(firstPage)).events.length === 0 &&
      !finished &&
      Date.now() < deadline
    )
      await new Promise((resolve) => setTimeout(resolve, 5));
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(finished).toBe(false);
    const reply = await running;
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ pagesCreated: 400, errors: [] });
  });
});

describe("an import never half-fails", () => {
  it("reports a note whose frontmatter is an alias bomb, keeps it as text, and imports the others", async () => {
    const ned = await server.registered("ned");
    const bomb = `---\n${aliasBomb()}title: Boom\n---\nBody of the bomb`;
    const reply = await importVault(ned, [
      { path: "Before.md", content: "before" },
      { path: "Bomb.md", content: bomb },
      { path: "After.md", content: "after" },
    ]);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ pagesCreated: 3 });
    expect(reply.body.errors).toEqual([
      expect.stringMatching(/^"Bomb\.md": its frontmatter could not be read .*kept as text$/),
    ]);
    expect(await contentOf(ned, "Bomb")).toContain("Body of the bomb");
    expect((await resolve(ned, "After")).length).toBe(1);
  });
});

describe("folders from import paths", () => {
  it("obey POST /folders's rules: a refused directory name makes no folder and the notes below it are reported", async () => {
    const ora = await server.registered("ora");
    const long = "L".repeat(250);
    const reply = await importVault(ora, [
      { path: `${long}/Long.md`, content: "x" },
      { path: "\u200b/Zero.md", content: "x" },
      { path: "\u202e\u202c/Bidi.md", content: "x" },
      { path: "\u202e\u202c/below/Deeper.md", content: "x" },
      { path: "Fine/Kept.md", content: "x" },
    ]);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ foldersCreated: 1, pagesCreated: 1 });
    expect(reply.body.errors).toEqual([
      expect.stringMatching(/^"L+\/Long\.md": skipped: the folder "L+" cannot be made: .*200/),
      expect.stringMatching(/^"\u200b\/Zero\.md": skipped: .*only invisible characters/),
      expect.stringMatching(/^"\u202e\u202c\/Bidi\.md": skipped: .*only invisible characters/),
      expect.stringMatching(/^"\u202e\u202c\/below\/Deeper\.md": skipped: .*only invisible characters/),
    ]);
    const folders = (await ora.get("/folders")).body.data as Array<{ name: string }>;
    expect(folders.map((folder) => folder.name)).toEqual(["Fine"]);
  });

  it("make directories that differ only in case one folder", async () => {
    const pat = await server.registered("pat");
    const reply = await importVault(pat, [
      { path: "Dir/One.md", content: "x" },
      { path: "dir/Two.md", content: "x" },
      { path: "DIR/Sub/Three.md", content: "x" },
      { path: "dir/sub/Four.md", content: "x" },
    ]);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ foldersCreated: 2, pagesCreated: 4, errors: [] });
    const folders = (await pat.get("/folders")).body.data as Array<{ name: string }>;
    expect(folders.map((folder) => folder.name).sort()).toEqual(["Dir", "Sub"]);
    for (const title of ["One", "Two"]) expect((await resolve(pat, title))[0]?.folderPath).toBe("Dir");
    for (const title of ["Three", "Four"]) expect((await resolve(pat, title))[0]?.folderPath).toBe("Dir/Sub");
  });
});

describe("a note too complex to read", () => {
  let limited: TestServer;
  beforeAll(async () => {
    // A limit far above what an ordinary note takes and far below what 120,000 bare brackets take to parse (the
    // parser is quadratic on them: 40,000 took 16 s on Node 20 but 1.4 s on Node 24; 120,000 took 92 s there).
    limited = await TestServer.start({ settings: { IMPORT_NOTE_TIME_LIMIT_MS: "2000" } });
  });
  afterAll(async () => {
    await limited.stop();
  });

  it("is reported in errors after the time limit while the other notes import and /healthz keeps answering", async () => {
    const gil = await limited.registered("gil");
    const importing = importVault(gil, [
      // First in the import's order, so the notes after it go to a fresh worker.
      { path: "A hard note.md", content: "[x] ".repeat(120_000) },
      { path: "Easy.md", content: "Links to [[Other]]." },
      { path: "Other.md", content: "Plain." },
    ]);
    let settled = false;
    void importing.finally(() => {
      settled = true;
    });
    // The loop stays free while the note is parsed: /healthz is answered again and again before the import is.
    let healthy = 0;
    while (!settled) {
      const health = await fetch(`${limited.url}/healthz`);
      expect(health.status).toBe(200);
      if (!settled) healthy += 1;
    }
    expect(healthy).toBeGreaterThanOrEqual(20);

    const reply = await importing;
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ pagesCreated: 2, backlinksCreated: 1 });
    expect(reply.body.errors).toEqual([expect.stringMatching(/^"A hard note\.md": skipped: too complex to read/)]);
    expect(await resolve(gil, "A hard note")).toEqual([]);
    expect(await contentOf(gil, "Easy")).toMatch(/^Links to \[Other\]\(\/api\/v1\/pages\/[0-9a-f-]{36}\)\.$/);
  });
});

describe("a note too large to parse", () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await TestServer.start({ settings: { WORKER_MEMORY_MB: "32" } });
  });
  afterAll(async () => {
    await small.stop();
  });

  it("is reported in errors when its parse outgrows the worker's heap, and the other notes import", async () => {
    const hu = await small.registered("hu");
    const reply = await importVault(hu, [
      { path: "Huge.md", content: "*a* ".repeat(50_000) },
      { path: "Fine.md", content: "Links to [[Huge]] and [[Other]]." },
      { path: "Other.md", content: "Plain." },
    ]);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ pagesCreated: 2 });
    expect(reply.body.errors).toContain(
      '"Huge.md": skipped: too large to read (parsing its markdown needed more memory than an import allows one note)',
    );
    expect(await resolve(hu, "Huge")).toEqual([]);
    expect(await resolve(hu, "Other")).toHaveLength(1);
  });
});
