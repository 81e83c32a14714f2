import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../../support/server.ts";
import { createFolder, createPage, share } from "../../support/workspace-builders.ts";
import { createShareLink, publicRequest, unlock } from "../../support/share-links.ts";
import { sharedPagesRendered } from "../../../shared/share-links/render/render-shared-page.ts";
import { until } from "../../support/poll.ts";

let server: TestServer;
let offsetMs = 0;
beforeAll(async () => {
  server = await TestServer.start({
    clock: () => new Date(Date.now() + offsetMs),
    settings: { SHARE_LINK_VIEW_FLUSH_MS: "50" },
  });
});
afterAll(async () => {
  await server.stop();
});

const registered = (label: string): Promise<TestUser> => server.registered(label);
const view = (path: string, headers: Record<string, string> = {}) => publicRequest(server.url, path, { headers });
const randomSecretPath = () => `/s/sl_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;

describe("creating and managing share links", () => {
  it("an admin creates a page link: 201 with the url once, later reads without it", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner, { title: "Plan" });
    const created = await owner.post(`/pages/${pageId}/share-links`, {});
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      entityType: "page",
      entityId: pageId,
      expiresAt: null,
      passwordProtected: false,
      allowIndexing: false,
      createdBy: owner.id,
      revokedAt: null,
      views: 0,
      lastViewedAt: null,
    });
    expect(String(created.body.url)).toMatch(/\/s\/sl_[A-Za-z0-9_-]{43}$/);
    const linkId = String(created.body.id);
    expect(created.headers.get("location")).toBe(`/api/v1/share-links/${linkId}`);
    const read = await owner.get(`/share-links/${linkId}`);
    expect(read.status).toBe(200);
    expect(read.body.url).toBeNull();
    const listed = await owner.get("/share-links");
    expect((listed.body.data as { id: string }[]).map((link) => link.id)).toContain(created.body.id);
    const forPage = await owner.get(`/share-links?entityType=page&entityId=${pageId}`);
    expect((forPage.body.data as { id: string }[]).map((link) => link.id)).toEqual([created.body.id]);
  });

  it("a view-only user cannot create a link (403), a stranger does not see the page (404)", async () => {
    const owner = await registered("owner");
    const viewer = await registered("viewer");
    const stranger = await registered("stranger");
    const pageId = await createPage(owner);
    await share(owner, "page", pageId, viewer.email, "view");
    expect((await viewer.post(`/pages/${pageId}/share-links`, {})).status).toBe(403);
    expect((await stranger.post(`/pages/${pageId}/share-links`, {})).status).toBe(404);
    const link = await createShareLink(owner, "page", pageId);
    expect((await viewer.get(`/share-links/${link.id}`)).status).toBe(404);
    expect((await viewer.delete(`/share-links/${link.id}`)).status).toBe(404);
    expect((await viewer.get(`/share-links?entityType=page&entityId=${pageId}`)).status).toBe(403);
  });

  it("refuses an expiry in the past", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner);
    const reply = await owner.post(`/pages/${pageId}/share-links`, { expiresAt: "2020-01-01T00:00:00Z" });
    expect(reply.status).toBe(400);
  });

  it("creating, changing and revoking are in the page's history, without the secret or password", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner);
    const created = await owner.post(`/pages/${pageId}/share-links`, { password: "hunter2-secret" });
    const linkId = String(created.body.id);
    expect((await owner.patch(`/share-links/${linkId}`, { allowIndexing: true })).status).toBe(200);
    expect((await owner.delete(`/share-links/${linkId}`)).status).toBe(204);
    const history = await owner.get(`/pages/${pageId}/history`);
    const changes = (history.body.data as { changes: { kind: string; action?: string } }[]).map(
      (entry) => entry.changes,
    );
    expect(changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "share_link", action: "created", linkId, passwordProtected: true }),
        expect.objectContaining({ kind: "share_link", action: "changed", linkId, allowIndexing: true }),
        expect.objectContaining({ kind: "share_link_revoked", linkId }),
      ]),
    );
    expect(history.text).not.toContain("hunter2-secret");
    expect(history.text).not.toContain("scrypt");
    expect(history.text).not.toContain(String(created.body.url).split("/s/")[1]);
  });
});

describe("the public page", () => {
  it("shows the title and the rendered text with strict headers; Accept: text/markdown answers the markdown", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner, { title: "Launch notes", markdown: "Hello **world**\n\n- one\n- two" });
    const link = await createShareLink(owner, "page", pageId);
    const page = await view(link.path);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.text).toContain("<title>Launch notes</title>");
    expect(page.text).toContain("<strong>world</strong>");
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    expect(page.headers.get("content-security-policy")).not.toMatch(/script-src|unsafe-inline/);
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const markdown = await view(link.path, { accept: "text/markdown" });
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(markdown.text).toBe("Hello **world**\n\n- one\n- two");
  });

  it("renders the markdown in a worker thread, not on the server's event loop", async () => {
    const owner = await registered("owner");
    const link = await createShareLink(owner, "page", await createPage(owner, { markdown: "rendered *elsewhere*" }));
    const before = sharedPagesRendered();
    expect((await view(link.path)).text).toContain("<em>elsewhere</em>");
    expect(sharedPagesRendered()).toBe(before + 1);
  });

  it("a link that allows indexing drops X-Robots-Tag", async () => {
    const owner = await registered("owner");
    const link = await createShareLink(owner, "page", await createPage(owner), { allowIndexing: true });
    expect((await view(link.path)).headers.get("x-robots-tag")).toBeNull();
  });

  it("revoked, expired, deleted and random secrets answer the same 404, byte for byte", async () => {
    const owner = await registered("owner");
    const revoked = await createShareLink(owner, "page", await createPage(owner));
    expect((await view(revoked.path)).status).toBe(200);
    expect((await owner.delete(`/share-links/${revoked.id}`)).status).toBe(204);
    const expiring = await createShareLink(owner, "page", await createPage(owner), {
      expiresAt: new Date(Date.now() + offsetMs + 60_000).toISOString(),
    });
    expect((await view(expiring.path)).status).toBe(200);
    const deletedPage = await createPage(owner);
    const deleted = await createShareLink(owner, "page", deletedPage);
    expect((await owner.delete(`/pages/${deletedPage}`)).status).toBeLessThan(300);
    offsetMs += 120_000;
    try {
      const answers = await Promise.all([
        view(revoked.path),
        view(expiring.path),
        view(deleted.path),
        view(randomSecretPath()),
        view("/s/not-a-secret"),
      ]);
      for (const answer of answers) expect(answer.status).toBe(404);
      const bodies = new Set(answers.map((answer) => answer.text));
      expect(bodies.size).toBe(1);
      const headerSets = new Set(
        answers.map((answer) =>
          JSON.stringify([...answer.headers].filter(([name]) => !["date", "x-request-id", "ratelimit"].includes(name))),
        ),
      );
      // Each answer names its own request, its time and the address's remaining read budget; nothing else differs.
      expect(headerSets.size).toBe(1);
    } finally {
      offsetMs -= 120_000;
    }
  });

  it("a link stops showing when its creator loses admin, and shows again when it is given back", async () => {
    const owner = await registered("owner");
    const admin = await registered("admin");
    const pageId = await createPage(owner);
    await share(owner, "page", pageId, admin.email, "admin");
    const link = await createShareLink(admin, "page", pageId);
    expect((await view(link.path)).status).toBe(200);
    await share(owner, "page", pageId, admin.email, "view");
    expect((await view(link.path)).status).toBe(404);
    expect((await admin.get(`/share-links/${link.id}`)).status).toBe(200);
    expect((await admin.patch(`/share-links/${link.id}`, { allowIndexing: true })).status).toBe(403);
    await share(owner, "page", pageId, admin.email, "admin");
    expect((await view(link.path)).status).toBe(200);
  });

  it("counts views through the write side: views and lastViewedAt; a HEAD is not a view", async () => {
    const owner = await registered("owner");
    const link = await createShareLink(owner, "page", await createPage(owner));
    expect((await publicRequest(server.url, link.path, { method: "HEAD" })).status).toBe(200);
    await view(link.path);
    await view(link.path, { accept: "text/markdown" });
    const views = async () => (await owner.get(`/share-links/${link.id}`)).body;
    expect((await until(views, (record) => Number(record.views) >= 2)).lastViewedAt).toEqual(expect.any(String));
    // A last view an hour ahead on the server's clock: reports go out in order, so once its time shows, every
    // earlier view (a counted HEAD too) is in the count.
    offsetMs += 3_600_000;
    try {
      await view(link.path);
      const marker = new Date(Date.now() + 1_800_000).toISOString();
      const last = await until(views, (record) => String(record.lastViewedAt) > marker);
      expect(String(last.lastViewedAt) > marker).toBe(true);
      expect(last.views).toBe(3);
    } finally {
      offsetMs -= 3_600_000;
    }
  });
});

describe("a password-protected link", () => {
  it("answers 401 with a form; a wrong password 401 again; the right one sets a cookie scoped to the link and redirects", async () => {
    const owner = await registered("owner");
    const link = await createShareLink(
      owner,
      "page",
      await createPage(owner, { title: "Secret plan", markdown: "behind the door" }),
      { password: "open sesame" },
    );
    const locked = await view(link.path);
    expect(locked.status).toBe(401);
    expect(locked.text).toContain('<input type="password" name="password"');
    expect(locked.text).not.toContain("behind the door");
    const wrong = await unlock(server.url, link.path, "wrong");
    expect(wrong.status).toBe(401);
    const right = await unlock(server.url, link.path, "open sesame");
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe(link.path);
    const cookie = right.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toContain(`Path=${link.path}`);
    const opened = await view(link.path, { cookie: cookie.split(";")[0] ?? "" });
    expect(opened.status).toBe(200);
    expect(opened.text).toContain("behind the door");
    // A new password makes the earlier cookie worthless.
    expect((await owner.patch(`/share-links/${link.id}`, { password: "another one" })).status).toBe(200);
    expect((await view(link.path, { cookie: cookie.split(";")[0] ?? "" })).status).toBe(401);
    expect((await view(link.path, { cookie: "share_unlock=%E0%A4%A" })).status).toBe(401);
    expect((await view(link.path, { cookie: "share_unlock=9999999999.forged" })).status).toBe(401);
  });

  it("bounds guessing per link: 429 with Retry-After", async () => {
    const owner = await registered("owner");
    const link = await createShareLink(owner, "page", await createPage(owner), { password: "right" });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 22; attempt += 1)
      statuses.push((await unlock(server.url, link.path, `guess ${attempt}`)).status);
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    const refused = await unlock(server.url, link.path, "right");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("a folder link", () => {
  it("lists the folder's pages, shows each, and no longer shows a page moved out of the folder", async () => {
    const owner = await registered("owner");
    const folderId = await createFolder(owner, { name: "Handbook" });
    const inner = await createFolder(owner, { name: "Inner", parentId: folderId });
    const outside = await createPage(owner, { title: "Outside" });
    const first = await createPage(owner, {
      title: "First",
      parentId: folderId,
      markdown: `See [[Second]] and [outside](/api/v1/pages/${outside}).`,
    });
    const second = await createPage(owner, { title: "Second", parentId: inner, markdown: "second text" });
    const link = await createShareLink(owner, "folder", folderId);
    const index = await view(link.path);
    expect(index.status).toBe(200);
    expect(index.text).toContain("Handbook");
    expect(index.text).toContain(`${link.path}/pages/${first}`);
    expect(index.text).toContain("Inner/Second");
    const firstPage = await view(`${link.path}/pages/${first}`);
    expect(firstPage.text).toContain(`href="${link.path}/pages/${second}"`);
    expect(firstPage.text).toContain("outside");
    expect(firstPage.text).not.toContain(outside);
    expect((await view(`${link.path}/pages/${outside}`)).status).toBe(404);
    expect((await view(`${link.path}/pages/${second}`)).text).toContain("second text");
    expect((await owner.post(`/pages/${second}/move`, { parentId: null })).status).toBe(200);
    const moved = await view(`${link.path}/pages/${second}`);
    expect(moved.status).toBe(404);
    expect(moved.text).toBe((await view(randomSecretPath())).text);
  });
});
