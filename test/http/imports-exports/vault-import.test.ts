// Importing an Obsidian vault: the tree, links, images, path rules, idempotency and a realistic vault.
import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toNewEvents } from "../../../shared/commands/new-events.ts";
import { derivedId } from "../../../shared/imports/import-ids.ts";
import { pageIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import { pageStream } from "../../../shared/pages/page.decider.ts";
import { makeImage } from "../../support/images.ts";
import { TestServer } from "../../support/server.ts";
import { contentOf, importVault, resolve, type ImportResult } from "../../support/vault-import.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

describe("POST /imports/obsidian", () => {
  it("makes every directory a folder and every note a page under the caller's root, titled by file name or frontmatter", async () => {
    const ann = await server.registered("ann");
    const reply = await importVault(ann, [
      { path: "Welcome.md", content: "# Hello\n\nFirst note." },
      {
        path: "Projects/Plan.md",
        content: "---\ntitle: The Plan\nemoji: 🗺️\ntags: [work, q4]\nstatus: draft\n---\nPlan body.\n",
      },
      { path: "Projects/2026/Budget.md", content: "---\nicon: 💶\n---\nNumbers." },
    ]);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toEqual({
      foldersCreated: 2,
      pagesCreated: 3,
      imagesUploaded: 0,
      attachmentsUploaded: 0,
      backlinksCreated: 0,
      created: 5,
      updated: 0,
      unchanged: 0,
      errors: [],
    });

    const [welcome] = await resolve(ann, "Welcome");
    expect(welcome).toMatchObject({ parentId: null, folderPath: "", icon: null });
    const [plan] = await resolve(ann, "The Plan");
    expect(plan).toMatchObject({ folderPath: "Projects", icon: "🗺️" });
    const [budget] = await resolve(ann, "Budget");
    expect(budget).toMatchObject({ folderPath: "Projects/2026", icon: "💶" });
    // The fields the page took leave the frontmatter; the rest stays in the markdown.
    const plan_content = await contentOf(ann, "The Plan");
    expect(plan_content).toContain("tags:");
    expect(plan_content).toContain("status: draft");
    expect(plan_content).toContain("Plan body.");
    expect(plan_content).not.toContain("emoji:");
    expect(await contentOf(ann, "Budget")).not.toContain("icon:");
  });

  it("reuses a folder the caller already has at the same path", async () => {
    const bob = await server.registered("bob");
    const existing = await bob.post("/folders", { name: "Notes" });
    const first = await importVault(bob, [{ path: "Notes/One.md", content: "one" }]);
    expect(first.body).toMatchObject({ foldersCreated: 0, pagesCreated: 1 });
    const second = await importVault(bob, [{ path: "Notes/Sub/Two.md", content: "two" }]);
    expect(second.body).toMatchObject({ foldersCreated: 1, pagesCreated: 1 });
    const [one] = await resolve(bob, "One");
    expect(one?.parentId).toBe(existing.body.id);
    const folders = await bob.get("/folders");
    expect((folders.body.data as Array<{ name: string }>).map((folder) => folder.name).sort()).toEqual([
      "Notes",
      "Sub",
    ]);
  });

  it("turns wikilinks into links to the imported pages and counts them; unresolved ones stay as text and are reported", async () => {
    const cy = await server.registered("cy");
    const reply = await importVault(cy, [
      {
        path: "Index.md",
        content:
          "See [[Target]], [[Target|the target]], [[deep/Other]] and [[Target#Next Steps]].\nAlso [[Missing note]].\n\n`[[Target]]` in code.\n\n```\n[[Target]] in a block\n```\n",
      },
      { path: "Target.md", content: "## Next Steps\n" },
      { path: "deep/Other.md", content: "other" },
    ]);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ pagesCreated: 3, backlinksCreated: 4 });
    expect(reply.body.errors).toEqual(['"Index.md": link [[Missing note]] names no imported note']);
    const [target] = await resolve(cy, "Target");
    const [other] = await resolve(cy, "Other");
    const index = await contentOf(cy, "Index");
    expect(index).toContain(
      `See [Target](/api/v1/pages/${target?.id}), [the target](/api/v1/pages/${target?.id}), [deep/Other](/api/v1/pages/${other?.id})`,
    );
    expect(index).toContain(`[Target > Next Steps](/api/v1/pages/${target?.id}#next-steps)`);
    expect(index).toContain("Also [[Missing note]].");
    expect(index).toContain("`[[Target]]` in code.");
    expect(index).toContain("```\n[[Target]] in a block\n```");
  });

  it("picks the note with the shortest path when a name is ambiguous, as Obsidian does", async () => {
    const dee = await server.registered("dee");
    await importVault(dee, [
      { path: "a/b/Meeting.md", content: "deep" },
      { path: "x/Meeting.md", content: "shallow" },
      { path: "Links.md", content: "[[Meeting]] and [[a/b/Meeting]]" },
    ]);
    const meetings = await resolve(dee, "Meeting");
    const shallow = meetings.find((page) => page.folderPath === "x");
    const deep = meetings.find((page) => page.folderPath === "a/b");
    expect(await contentOf(dee, "Links")).toContain(
      `[Meeting](/api/v1/pages/${shallow?.id}) and [a/b/Meeting](/api/v1/pages/${deep?.id})`,
    );
  });

  it("uploads embedded images, as base64 or data: URLs, and writes their markdown into the page", async () => {
    const eve = await server.registered("eve");
    const png = await makeImage("png", 20, 10);
    const jpeg = await makeImage("jpeg", 30, 15);
    const reply = await importVault(eve, [
      { path: "Trip.md", content: "Photo: ![[beach.png]]\n\nAnd ![the hut](attachments/hut.jpg)\n" },
      { path: "attachments/beach.png", content: png.toString("base64") },
      { path: "attachments/hut.jpg", content: `data:image/jpeg;base64,${jpeg.toString("base64")}` },
      { path: "attachments/unused.png", content: png.toString("base64") },
      { path: "attachments/fake.png", content: Buffer.from("not an image").toString("base64") },
    ]);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ pagesCreated: 1, imagesUploaded: 2, foldersCreated: 0 });
    const errors = reply.body.errors as string[];
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/unused\.png.*no imported note embeds/),
        expect.stringMatching(/fake\.png.*skipped/),
      ]),
    );
    const content = await contentOf(eve, "Trip");
    const urls = [...content.matchAll(/!\[([^\]]*)\]\((\/api\/v1\/images\/[0-9a-f-]+)\)/g)];
    expect(urls.map((match) => match[1])).toEqual(["beach", "the hut"]);
    const served = await fetch(`${server.url}${urls[0]?.[2]}`, {
      headers: { cookie: `app-auth.session_token=${(eve.credentials as { cookie: string }).cookie}` },
    });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it("skips and reports paths that are absolute, climb out, have empty segments or controls, or repeat another", async () => {
    const fay = await server.registered("fay");
    const reply = await importVault(fay, [
      { path: "/etc/Passwd.md", content: "x" },
      { path: "../Up.md", content: "x" },
      { path: "a//Empty.md", content: "x" },
      { path: "Bell\u0007.md", content: "x" },
      { path: "Kept.md", content: "first" },
      { path: "kept.md", content: "second" },
      { path: "notes.txt", content: "x" },
    ]);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.pagesCreated).toBe(1);
    const errors = reply.body.errors as string[];
    expect(errors).toHaveLength(6);
    expect(errors.join("\n")).toMatch(
      /starts with '\/'[\s\S]*'\.\.' segment[\s\S]*empty segment[\s\S]*control characters[\s\S]*repeats[\s\S]*must be base64/,
    );
    expect(await contentOf(fay, "Kept")).toContain("first");
    expect(await resolve(fay, "Passwd")).toEqual([]);
  });

  it("refuses a request over its bounds or not of its shape with 400 and imports nothing", async () => {
    const gus = await server.registered("gus");
    const tooMany = Array.from({ length: 5_001 }, (_, index) => ({ path: `n${index}.md`, content: "x" }));
    expect((await importVault(gus, tooMany)).status).toBe(400);
    const tooLarge = Array.from({ length: 11 }, (_, index) => ({
      path: `big${index}.md`,
      content: "x".repeat(5 * 1024 * 1024),
    }));
    const large = await importVault(gus, tooLarge);
    expect(large.status).toBe(400);
    expect(large.body.error?.message).toMatch(/50 MB/);
    expect((await gus.call("POST", "/imports/obsidian", { json: { files: [{ path: "a.md" }] } })).status).toBe(400);
    expect((await gus.call("POST", "/imports/obsidian", { json: { files: [] } })).status).toBe(400);
    expect((await gus.call("POST", "/imports/obsidian", { json: [{ path: "a.md", content: "x" }] })).status).toBe(400);
    expect(((await gus.get("/pages")).body.data as unknown[]).length).toBe(0);
    const reader = await server.tokenClient(gus, ["pages:read"]);
    expect((await importVault(reader, [{ path: "a.md", content: "x" }])).status).toBe(403);
  });

  it("records every event of one import under one correlation id", async () => {
    const hal = await server.registered("hal");
    await importVault(hal, [
      { path: "One.md", content: "x" },
      { path: "Dir/Two.md", content: "y" },
    ]);
    const pages = [...(await resolve(hal, "One")), ...(await resolve(hal, "Two"))];
    const correlationIds = new Set<string>();
    for (const page of pages)
      for (const event of (await server.internals.eventStore.read(pageStream(page.id))).events)
        correlationIds.add(event.metadata.correlationId);
    expect(correlationIds.size).toBe(1);
  });
});

describe("Idempotency-Key on import", () => {
  it("replays a completed import, and a retry of a failed one creates only what is missing", async () => {
    const ivy = await server.registered("ivy");
    const key = randomUUID();
    const files = [
      { path: "First.md", content: "no images" },
      { path: "Second.md", content: "![[pic.png]]" },
      { path: "pic.png", content: (await makeImage("png")).toString("base64") },
    ];
    // The blob store cannot write (its partial-file directory is a file): the import fails at the image,
    // after the first page was created.
    const partials = join(server.dataDir, "blobs", ".partial");
    await rm(partials, { recursive: true, force: true });
    await writeFile(partials, "in the way");
    const failed = await importVault(ivy, files, { "idempotency-key": key });
    expect(failed.status).toBe(500);
    expect((await resolve(ivy, "First")).length).toBe(1);

    await rm(partials, { force: true });
    await server.restart();
    const retried = await importVault(ivy, files, { "idempotency-key": key });
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body).toMatchObject({ pagesCreated: 1, imagesUploaded: 1, errors: [] });
    expect((await resolve(ivy, "First")).length).toBe(1);
    expect((await resolve(ivy, "Second")).length).toBe(1);

    const replayed = await importVault(ivy, files, { "idempotency-key": key });
    expect(replayed.status).toBe(201);
    expect(replayed.body).toEqual(retried.body);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(((await ivy.get("/pages")).body.data as unknown[]).length).toBe(2);
    expect((await importVault(ivy, files.slice(0, 1), { "idempotency-key": key })).status).toBe(422);
  });
});

describe("an import's derived ids", () => {
  it("are found again by a retry whose first attempt derived them before they were keyed: nothing is made twice", async () => {
    const joy = await server.registered("joy");
    const key = randomUUID();
    const owner = userIdSchema.parse(joy.id);
    // What a first attempt that failed before the upgrade left: its first page, under the id it derived then.
    const pageId = pageIdSchema.parse(derivedId(`${joy.id}\n${key}`, "page", "First.md"));
    const created = {
      type: "PageCreated" as const,
      data: { pageId, ownerId: owner, parentId: null, title: "First", icon: null, markdown: "before" },
    };
    await server.internals.eventStore.append(
      pageStream(pageId),
      toNewEvents([created], { actorId: owner, correlationId: "first-attempt", now: new Date() }),
      "no_stream",
    );
    const retried = await importVault(
      joy,
      [
        { path: "First.md", content: "before" },
        { path: "Second.md", content: "after" },
      ],
      { "idempotency-key": key },
    );
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body).toMatchObject({ pagesCreated: 1, errors: [] });
    expect((await resolve(joy, "First")).map((page) => page.id)).toEqual([pageId]);
    expect(await resolve(joy, "Second")).toHaveLength(1);
  });
});

describe("a realistic vault", () => {
  it("imports it whole: every count, every error, the tree through the query API and every page's content", async () => {
    const kim = await server.registered("kim");
    const png = (await makeImage("png", 12, 12)).toString("base64");
    const files = [
      {
        path: "Home.md",
        content:
          "---\ntitle: Start here\nemoji: 🏠\ncssclass: wide\n---\nSee [[Roadmap|the roadmap]], [[Work/Notes/Meeting#Actions]] and [[Ghost]].\n\n```md\n[[Roadmap]] is code\n```\n",
      },
      { path: "Work/Roadmap.md", content: "# Roadmap\n![[diagram.png]]\n![](../assets/photo.png)\n" },
      { path: "Work/Notes/Meeting.md", content: "## Actions\n- [[Home]]\n" },
      { path: "Archive/2025/Q1/Meeting.md", content: "old meeting, linked as [[Meeting]]" },
      { path: "assets/diagram.png", content: png },
      { path: "assets/photo.png", content: `data:image/png;base64,${png}` },
      { path: "../escape.md", content: "x" },
      { path: "/abs.md", content: "x" },
      { path: "Work//double.md", content: "x" },
      { path: "Home.md", content: "a second Home" },
    ];
    const reply = await importVault(kim, files);
    expect(reply.status, reply.text).toBe(201);
    const result = reply.body as unknown as ImportResult;
    expect({ ...result, errors: result.errors.length }).toEqual({
      foldersCreated: 5,
      pagesCreated: 4,
      imagesUploaded: 2,
      attachmentsUploaded: 0,
      backlinksCreated: 4,
      created: 11,
      updated: 0,
      unchanged: 0,
      errors: 5,
    });
    expect(result.errors).toEqual([
      expect.stringMatching(/^"\.\.\/escape\.md": skipped: .*'\.\.' segment/),
      expect.stringMatching(/^"\/abs\.md": skipped: .*starts with '\/'/),
      expect.stringMatching(/^"Work\/\/double\.md": skipped: .*empty segment/),
      expect.stringMatching(/^"Home\.md": skipped: repeats the path/),
      '"Home.md": link [[Ghost]] names no imported note',
    ]);

    const folders = (await kim.get("/folders")).body.data as Array<{
      id: string;
      name: string;
      parentId: string | null;
    }>;
    const parentName = (folder: { parentId: string | null }) =>
      folders.find((candidate) => candidate.id === folder.parentId)?.name ?? null;
    expect(folders.map((folder) => [folder.name, parentName(folder)]).sort()).toEqual([
      ["2025", "Archive"],
      ["Archive", null],
      ["Notes", "Work"],
      ["Q1", "2025"],
      ["Work", null],
    ]);
    const paths = async (title: string) => (await resolve(kim, title)).map((page) => page.folderPath).sort();
    expect(await paths("Start here")).toEqual([""]);
    expect(await paths("Roadmap")).toEqual(["Work"]);
    expect(await paths("Meeting")).toEqual(["Archive/2025/Q1", "Work/Notes"]);
    const [home] = await resolve(kim, "Start here");
    expect(home?.icon).toBe("🏠");

    const [roadmap] = await resolve(kim, "Roadmap");
    const meetings = await resolve(kim, "Meeting");
    const workMeeting = meetings.find((page) => page.folderPath === "Work/Notes");
    const homeContent = await contentOf(kim, "Start here");
    expect(homeContent).toContain("cssclass: wide");
    expect(homeContent).not.toContain("emoji:");
    expect(homeContent).toContain(
      `See [the roadmap](/api/v1/pages/${roadmap?.id}), [Work/Notes/Meeting > Actions](/api/v1/pages/${workMeeting?.id}#actions) and [[Ghost]].`,
    );
    expect(homeContent).toContain("```md\n[[Roadmap]] is code\n```");
    expect(await contentOf(kim, "Roadmap")).toMatch(
      /^# Roadmap\n!\[diagram\]\(\/api\/v1\/images\/[0-9a-f-]{36}\)\n!\[\]\(\/api\/v1\/images\/[0-9a-f-]{36}\)\n$/,
    );
    const meetingContents = await Promise.all(
      meetings.map(async (page) => (await kim.get(`/pages/${page.id}/content`)).text),
    );
    // "[[Meeting]]" names two notes: the one with the shortest path wins, even over the linking note itself.
    expect(meetingContents.join("\n")).toContain(`old meeting, linked as [Meeting](/api/v1/pages/${workMeeting?.id})`);
    expect(meetingContents.join("\n")).toContain(`- [Home](/api/v1/pages/${home?.id})`);
  });
});
