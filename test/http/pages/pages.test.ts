import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_BODY_LIMIT_BYTES } from "../../../services/command-api/routes/fields.ts";
import { type Client, TestServer, type TestUser } from "../../support/server.ts";

let server: TestServer;
let ann: TestUser;
beforeAll(async () => {
  server = await TestServer.start();
  ann = await server.signIn("ann");
});
afterAll(async () => {
  await server.stop();
});

type PageBody = {
  id: string;
  title: string;
  parentId: string | null;
  icon: string | null;
  updatedAt: string;
  permission: string;
  folderPath?: string;
};
const pagesOf = (body: Record<string, unknown>) => body.data as PageBody[];

describe("creating pages", () => {
  it("creates a page at the root with every field of the page record", async () => {
    const created = await ann.post("/pages", { title: "  Weekly notes ", markdown: "# Hello" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      parentId: null,
      title: "Weekly notes",
      icon: null,
      cover: null,
      properties: {},
      ownerId: ann.id,
      permission: "owner",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      unreachableMentions: [],
    });
    expect(created.headers.get("x-consistency-token")).toMatch(/^\d+$/);
    const read = await ann.get(`/pages/${String(created.body.id)}`);
    const { unreachableMentions: _mentions, ...record } = created.body;
    expect(read.body).toEqual(record);
  });

  it("creates a page inside a folder and lists it under parentId", async () => {
    const folder = await ann.post("/folders", { name: "Inbox" });
    const page = await ann.post("/pages", { title: "In the inbox", parentId: folder.body.id, icon: "📥" });
    expect(page.status).toBe(201);
    expect(page.body).toMatchObject({ parentId: folder.body.id, icon: "📥" });
    const listed = await ann.get(`/pages?parentId=${String(folder.body.id)}`);
    expect(pagesOf(listed.body).map((p) => p.id)).toEqual([page.body.id]);
  });

  it("validates the body", async () => {
    const cases: unknown[] = [
      {},
      { title: "" },
      { title: "   " },
      { title: "x".repeat(201) },
      { title: 5 },
      { title: "ok", markdown: 7 },
      { title: "ok", parentId: "not-a-uuid" },
      { title: "ok", icon: "" },
      { title: "ok", markdown: "x".repeat(500_001) },
    ];
    for (const body of cases) {
      const reply = await ann.post("/pages", body);
      expect(reply.status, JSON.stringify(body).slice(0, 80)).toBe(reply.status === 413 ? 413 : 400);
      expect(reply.body.error?.code).toMatch(/validation_failed|payload_too_large/);
    }
  });

  it("answers 404 for a parent folder that does not exist or is not visible", async () => {
    const missing = await ann.post("/pages", { title: "Orphan", parentId: crypto.randomUUID() });
    expect(missing.status).toBe(404);
    const bob = await server.signIn("bob");
    const bobsFolder = await bob.post("/folders", { name: "Private" });
    const intruding = await ann.post("/pages", { title: "Intruder", parentId: bobsFolder.body.id });
    expect(intruding.status).toBe(404);
  });

  it("answers malformed JSON with 400, an oversized body with 413 and an unknown media type with 415", async () => {
    const malformed = await ann.call("POST", "/pages", {
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error?.code).toBe("validation_failed");
    // Past the page routes' body limit: the largest page in its worst encoding (every character a \uXXXX escape).
    const huge = await ann.call("POST", "/pages", {
      body: JSON.stringify({ title: "big", markdown: "x".repeat(PAGE_BODY_LIMIT_BYTES + 1) }),
      headers: { "content-type": "application/json" },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error?.code).toBe("payload_too_large");
    const xml = await ann.call("POST", "/pages", { body: "<page/>", headers: { "content-type": "application/xml" } });
    expect(xml.status).toBe(415);
    expect(xml.body.error?.code).toBe("unsupported_media_type");
  });

  it("answers unknown routes with a 404 error body", async () => {
    const reply = await ann.get("/nothing-here");
    expect(reply.status).toBe(404);
    expect(reply.body.error?.code).toBe("not_found");
  });
});

describe("listing pages", () => {
  it("lists most recently updated first and moves a renamed page to the top", async () => {
    const user = await server.signIn("lister");
    const first = await user.post("/pages", { title: "First" });
    const second = await user.post("/pages", { title: "Second" });
    expect(pagesOf((await user.get("/pages")).body).map((p) => p.title)).toEqual(["Second", "First"]);
    await user.patch(`/pages/${String(first.body.id)}`, { title: "First, renamed" });
    expect(pagesOf((await user.get("/pages")).body).map((p) => p.id)).toEqual([first.body.id, second.body.id]);
  });

  it("shows a stranger none of another user's pages, and 404 for them", async () => {
    const owner = await server.signIn("owner");
    const page = await owner.post("/pages", { title: "Diary" });
    const stranger = await server.signIn("stranger");
    expect(pagesOf((await stranger.get("/pages")).body)).toEqual([]);
    for (const path of [`/pages/${String(page.body.id)}`, `/pages/${String(page.body.id)}/content`]) {
      expect((await stranger.get(path)).status).toBe(404);
    }
    expect((await stranger.patch(`/pages/${String(page.body.id)}`, { title: "Mine" })).status).toBe(404);
    expect((await stranger.get(`/pages/resolve?title=Diary`)).body.data).toEqual([]);
  });

  it("rejects a bad limit (anything but plain decimal digits from 1 to 100) or cursor with 400", async () => {
    for (const query of [
      "limit=0",
      "limit=101",
      "limit=abc",
      "limit=1.5",
      "limit=0x10",
      "limit=%205",
      "limit=1e1",
      "limit=",
      "cursor=garbage",
      "parentId=nope",
    ]) {
      const reply = await ann.get(`/pages?${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.body.error?.code).toBe("validation_failed");
    }
    expect((await ann.get("/pages?limit=100")).status).toBe(200);
  });

  it("walks every page exactly once while other pages are being created", async () => {
    const writer = await server.signIn("writer");
    const existing: string[] = [];
    for (let i = 0; i < 30; i += 1)
      existing.push(String((await writer.post("/pages", { title: `Page ${i}` })).body.id));
    const seen: string[] = [];
    let cursor: string | null = null;
    let inserted = 0;
    do {
      const reply: Awaited<ReturnType<Client["get"]>> = await writer.get(
        `/pages?limit=7${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(reply.status).toBe(200);
      seen.push(...pagesOf(reply.body).map((p) => p.id));
      cursor = reply.body.nextCursor as string | null;
      await Promise.all([
        writer.post("/pages", { title: `New ${inserted}` }),
        writer.post("/pages", { title: `New ${inserted + 1}` }),
      ]);
      inserted += 2;
    } while (cursor !== null);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of existing) expect(seen).toContain(id);
  });

  it("pages through a list with nextCursor until it is null", async () => {
    const user = await server.signIn("pager");
    for (let i = 0; i < 5; i += 1) await user.post("/pages", { title: `P${i}` });
    const first = await user.get("/pages?limit=2");
    expect(pagesOf(first.body).map((p) => p.title)).toEqual(["P4", "P3"]);
    const second = await user.get(`/pages?limit=2&cursor=${String(first.body.nextCursor)}`);
    expect(pagesOf(second.body).map((p) => p.title)).toEqual(["P2", "P1"]);
    const third = await user.get(`/pages?limit=2&cursor=${String(second.body.nextCursor)}`);
    expect(pagesOf(third.body).map((p) => p.title)).toEqual(["P0"]);
    expect(third.body.nextCursor).toBeNull();
  });
});

describe("resolving pages by title", () => {
  it("matches the trimmed title case-insensitively and gives the folder path", async () => {
    const user = await server.signIn("resolver");
    const projects = await user.post("/folders", { name: "Projects" });
    const q4 = await user.post("/folders", { name: "Q4 Plans", parentId: projects.body.id });
    const nested = await user.post("/pages", { title: "Roadmap", parentId: q4.body.id });
    const root = await user.post("/pages", { title: "roadmap" });
    await user.post("/pages", { title: "Roadmap 2" });
    const reply = await user.get(`/pages/resolve?title=${encodeURIComponent("  ROADMAP ")}`);
    expect(reply.status).toBe(200);
    const found = pagesOf(reply.body);
    expect(found.map((p) => [p.id, p.folderPath]).sort()).toEqual(
      [
        [nested.body.id, "Projects/Q4 Plans"],
        [root.body.id, ""],
      ].sort(),
    );
    expect(reply.body.nextCursor).toBeUndefined();
    const filtered = await user.get(
      `/pages/resolve?title=roadmap&folderPath=${encodeURIComponent("projects/q4 plans")}`,
    );
    expect(pagesOf(filtered.body).map((p) => p.id)).toEqual([nested.body.id]);
  });

  it("finds the caller's page even when another tenant made 1,000 newer pages with the same title", async () => {
    const owner = await server.signIn("owner-of-the-plan");
    const mine = await owner.post("/pages", { title: "Launch plan" });
    const squatter = await server.signIn("squatter");
    for (let batch = 0; batch < 50; batch += 1) {
      const writes = Array.from({ length: 20 }, () => squatter.post("/pages", { title: "launch PLAN" }));
      expect((await Promise.all(writes)).every((reply) => reply.status === 201)).toBe(true);
    }
    const found = await owner.get("/pages/resolve?title=Launch%20plan");
    expect(pagesOf(found.body).map((p) => p.id)).toEqual([mine.body.id]);
    expect(pagesOf((await squatter.get("/pages/resolve?title=Launch%20plan")).body)).toHaveLength(100);
  });

  it("requires a title", async () => {
    expect((await ann.get("/pages/resolve")).status).toBe(400);
    expect((await ann.get("/pages/resolve?title=%20%20")).status).toBe(400);
  });
});

describe("updating pages", () => {
  it("renames and re-icons a page, and refuses an empty or unknown change", async () => {
    const page = await ann.post("/pages", { title: "Draft" });
    const id = String(page.body.id);
    const renamed = await ann.patch(`/pages/${id}`, { title: "Final" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ title: "Final", icon: null });
    expect(String(renamed.body.updatedAt) >= String(page.body.updatedAt)).toBe(true);
    const iconed = await ann.patch(`/pages/${id}`, { icon: "🚀" });
    expect(iconed.body).toMatchObject({ title: "Final", icon: "🚀" });
    const both = await ann.patch(`/pages/${id}`, { title: "Both", icon: null });
    expect(both.body).toMatchObject({ title: "Both", icon: null });
    for (const body of [{}, { cover: "x" }, { title: "" }, { title: "x".repeat(201) }]) {
      const reply = await ann.patch(`/pages/${id}`, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    expect((await ann.patch(`/pages/${crypto.randomUUID()}`, { title: "x" })).status).toBe(404);
    expect((await ann.patch(`/pages/123`, { title: "x" })).status).toBe(400);
  });

  it("gives every one of 50 concurrent renames 200 or 409 and keeps one accepted title", async () => {
    const page = await ann.post("/pages", { title: "Contended" });
    const id = String(page.body.id);
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => ann.patch(`/pages/${id}`, { title: `Title ${i}` })),
    );
    const statuses = new Set(replies.map((r) => r.status));
    for (const status of statuses) expect([200, 409]).toContain(status);
    const accepted = replies.filter((r) => r.status === 200).map((r) => r.body.title);
    expect(accepted.length).toBeGreaterThan(0);
    const final = await ann.get(`/pages/${id}`);
    expect(accepted).toContain(final.body.title);
  });
});

describe("page content", () => {
  it("reads markdown with frontmatter and a strong ETag that changes with each revision", async () => {
    const page = await ann.post("/pages", { title: 'Quote "me"', markdown: "Body text\n\nMore." });
    const id = String(page.body.id);
    const first = await ann.get(`/pages/${id}/content`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(first.text).toMatch(new RegExp(`^---\\nid: ${id}\\ntitle: "Quote \\\\"me\\\\""\\nicon: null\\n`));
    expect(first.text).toContain(`createdAt: "${String(page.body.createdAt)}"`);
    expect(first.text.endsWith("---\nBody text\n\nMore.")).toBe(true);
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[^"]+"$/);
    await ann.patch(`/pages/${id}`, { title: "Renamed" });
    const second = await ann.get(`/pages/${id}/content`);
    expect(second.headers.get("etag")).not.toBe(etag);
    const notModified = await ann.get(`/pages/${id}/content`, { "if-none-match": second.headers.get("etag") ?? "" });
    expect(notModified.status).toBe(304);
  });

  it("replaces the content under If-Match: 200 when current, 412 when stale, 428 when missing", async () => {
    const page = await ann.post("/pages", { title: "Editable", markdown: "v1" });
    const id = String(page.body.id);
    const etag = (await ann.get(`/pages/${id}/content`)).headers.get("etag") ?? "";
    const missing = await ann.call("PUT", `/pages/${id}/content`, {
      body: "v2",
      headers: { "content-type": "text/markdown" },
    });
    expect(missing.status).toBe(428);
    const replaced = await ann.call("PUT", `/pages/${id}/content`, {
      body: "v2",
      headers: { "content-type": "text/markdown", "if-match": etag },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.text.endsWith("---\nv2")).toBe(true);
    const newEtag = replaced.headers.get("etag") ?? "";
    expect(newEtag).not.toBe(etag);
    const stale = await ann.call("PUT", `/pages/${id}/content`, {
      body: "v3",
      headers: { "content-type": "text/markdown", "if-match": etag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.error?.code).toBe("precondition_failed");
    const asJson = await ann.call("PUT", `/pages/${id}/content`, {
      json: { markdown: "v4" },
      headers: { "if-match": newEtag },
    });
    expect(asJson.status).toBe(200);
    const roundTrip = await ann.call("PUT", `/pages/${id}/content`, {
      body: `${asJson.text.replace("v4", "v5")}`,
      headers: { "content-type": "text/markdown", "if-match": asJson.headers.get("etag") ?? "" },
    });
    expect(roundTrip.status).toBe(200);
    expect((await ann.get(`/pages/${id}/content`)).text.endsWith("---\nv5")).toBe(true);
  });
});

describe("deleting pages", () => {
  it("removes a page from lists, resolve and content", async () => {
    const page = await ann.post("/pages", { title: "Short-lived" });
    const id = String(page.body.id);
    expect((await ann.delete(`/pages/${id}`)).status).toBe(204);
    expect(pagesOf((await ann.get("/pages?limit=100")).body).map((p) => p.id)).not.toContain(id);
    expect(pagesOf((await ann.get("/pages/resolve?title=Short-lived")).body)).toEqual([]);
    expect((await ann.get(`/pages/${id}/content`)).status).toBe(404);
    expect((await ann.get(`/pages/${id}`)).status).toBe(404);
    expect((await ann.delete(`/pages/${id}`)).status).toBe(404);
  });
});

describe("folders", () => {
  it("creates nested folders and lists them", async () => {
    const user = await server.signIn("folders");
    const top = await user.post("/folders", { name: "Top", icon: "📁" });
    expect(top.status).toBe(201);
    expect(top.body).toEqual({
      id: expect.any(String),
      parentId: null,
      name: "Top",
      icon: "📁",
      ownerId: user.id,
      permission: "owner",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const child = await user.post("/folders", { name: "Child", parentId: top.body.id });
    expect(child.body.parentId).toBe(top.body.id);
    const listed = await user.get("/folders");
    expect((listed.body.data as Array<{ id: string }>).map((f) => f.id)).toEqual([child.body.id, top.body.id]);
    expect(listed.body.nextCursor).toBeNull();
    const paged = await user.get("/folders?limit=1");
    expect(paged.body.nextCursor).toEqual(expect.any(String));
  });

  it("validates folder names and parents", async () => {
    for (const body of [{}, { name: "" }, { name: "a/b" }, { name: "x".repeat(201) }, { name: "ok", parentId: "x" }]) {
      expect((await ann.post("/folders", body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await ann.post("/folders", { name: "ok", parentId: crypto.randomUUID() })).status).toBe(404);
    expect((await ann.get("/folders?limit=0")).status).toBe(400);
  });
});

describe("consistency and durability", () => {
  it("honours X-Consistency-Token on reads and rejects a malformed one", async () => {
    const created = await ann.post("/pages", { title: "Consistent" });
    const token = created.headers.get("x-consistency-token") ?? "";
    const read = await ann.get(`/pages/${String(created.body.id)}`, { "x-consistency-token": token });
    expect(read.status).toBe(200);
    expect((await ann.get("/pages", { "x-consistency-token": "abc" })).status).toBe(400);
  });

  it("keeps everything across a restart", async () => {
    const local = await TestServer.start();
    const user = await local.signIn("durable");
    const folder = await user.post("/folders", { name: "Kept" });
    const page = await user.post("/pages", { title: "Survivor", parentId: folder.body.id, markdown: "still here" });
    const token = await local.tokenClient(user, ["pages:read"]);
    await local.restart();
    const { unreachableMentions: _mentions, ...record } = page.body;
    expect((await user.get(`/pages/${String(page.body.id)}`)).body).toEqual(record);
    expect((await token.get(`/pages/${String(page.body.id)}/content`)).text.endsWith("still here")).toBe(true);
    expect(((await user.get("/folders")).body.data as unknown[]).length).toBe(1);
    await local.stop();
  });

  it("gives the same answers after the read models are rebuilt from history", async () => {
    const user = await server.signIn("rebuild");
    const folder = await user.post("/folders", { name: "R" });
    const page = await user.post("/pages", { title: "Before", parentId: folder.body.id, markdown: "x" });
    await user.patch(`/pages/${String(page.body.id)}`, { title: "After", icon: "✅" });
    const before = [
      await user.get("/pages"),
      await user.get("/folders"),
      await user.get(`/pages/${String(page.body.id)}/content`),
    ];
    await server.rebuildReadModels();
    const after = [
      await user.get("/pages"),
      await user.get("/folders"),
      await user.get(`/pages/${String(page.body.id)}/content`),
    ];
    expect(after.map((r) => r.text)).toEqual(before.map((r) => r.text));
  });

  it("reports health and readiness", async () => {
    expect((await ann.get("/healthz")).body).toEqual({ status: "ok" });
    const ready = await ann.get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe("ready");
  });
});
