import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, TestServer, type TestUser } from "../../support/server.ts";
import { createFolder, createPage, share } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

interface Item {
  position: string;
  type: string;
  occurredAt: string;
  actor: { id: string; name: string };
  changes: Record<string, unknown> & { kind: string };
}
const itemsOf = (body: Record<string, unknown>): Item[] => body.data as Item[];

async function etag(client: Client, pageId: string): Promise<string> {
  return (await client.get(`/pages/${pageId}/content`)).headers.get("etag") ?? "";
}

async function putContent(client: Client, pageId: string, markdown: string) {
  return client.call("PUT", `/pages/${pageId}/content`, {
    json: { markdown },
    headers: { "if-match": await etag(client, pageId) },
  });
}

/** A page created, renamed and edited by its owner: its history positions in order. */
async function editedPage(owner: TestUser): Promise<{ pageId: string; positions: string[] }> {
  const pageId = await createPage(owner, { title: "Draft", markdown: "one\ntwo\n" });
  expect((await owner.patch(`/pages/${pageId}`, { title: "Plan" })).status).toBe(200);
  expect((await putContent(owner, pageId, "one\nthree\nfour\n")).status).toBe(200);
  const history = await owner.get(`/pages/${pageId}/history?order=asc`);
  return { pageId, positions: itemsOf(history.body).map((item) => item.position) };
}

describe("page history", () => {
  it("lists the page's changes oldest first with the actor, old and new title and a content summary", async () => {
    const owner = await server.registered("owner", { name: "Olive Owner" });
    const { pageId } = await editedPage(owner);
    const reply = await owner.get(`/pages/${pageId}/history?order=asc`);
    expect(reply.status).toBe(200);
    const items = itemsOf(reply.body);
    expect(items.map((item) => item.type)).toEqual(["PageCreated", "PageRenamed", "PageContentReplaced"]);
    expect(items[0]?.actor).toEqual({ id: owner.id, name: "Olive Owner" });
    expect(items[1]?.changes).toEqual({ kind: "title", from: "Draft", to: "Plan" });
    expect(items[2]?.changes).toEqual({
      kind: "content",
      sizeBefore: 8,
      sizeAfter: 15,
      linesAdded: 2,
      linesRemoved: 1,
    });
    expect(reply.body.nextCursor).toBeNull();
  });

  it("names the API token a change was made through, and no token for a browser session's change", async () => {
    const owner = await server.registered("owner", { name: "Olive Owner" });
    const pageId = await createPage(owner, { title: "Draft" });
    const created = await owner.post("/tokens", { name: "research agent", scopes: ["pages:read", "pages:write"] });
    const agent = new Client(server.url, { bearer: String(created.body.token) });
    expect((await agent.patch(`/pages/${pageId}`, { title: "Plan" })).status).toBe(200);
    const items = itemsOf((await owner.get(`/pages/${pageId}/history?order=asc`)).body);
    expect(items[0]?.actor).toEqual({ id: owner.id, name: "Olive Owner" });
    expect(items[1]?.actor).toEqual({
      id: owner.id,
      name: "Olive Owner",
      token: { id: created.body.id, name: "research agent" },
    });
  });

  it("is newest first by default and pages with a cursor without repeating or skipping", async () => {
    const owner = await server.registered("owner");
    const { pageId, positions } = await editedPage(owner);
    const first = await owner.get(`/pages/${pageId}/history?limit=2`);
    expect(itemsOf(first.body).map((item) => item.position)).toEqual([positions[2], positions[1]]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await owner.get(`/pages/${pageId}/history?limit=2&cursor=${String(first.body.nextCursor)}`);
    expect(itemsOf(second.body).map((item) => item.position)).toEqual([positions[0]]);
    expect(second.body.nextCursor).toBeNull();
  });

  it("answers 404 to a caller who cannot view the page and 403 to a token without pages:read", async () => {
    const owner = await server.registered("owner");
    const stranger = await server.registered("stranger");
    const pageId = await createPage(owner);
    expect((await stranger.get(`/pages/${pageId}/history`)).status).toBe(404);
    const writeOnly = await server.tokenClient(owner, ["pages:write"]);
    const refused = await writeOnly.get(`/pages/${pageId}/history`);
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe("insufficient_scope");
    expect((await server.anonymous().get(`/pages/${pageId}/history`)).status).toBe(401);
  });

  it("answers a stranger exactly as for a page that never existed, however long the page's history, deleted or not", async () => {
    const owner = await server.registered("owner");
    const stranger = await server.registered("stranger");
    const pageId = await createPage(owner);
    for (let i = 0; i < 20; i += 1)
      expect((await owner.patch(`/pages/${pageId}`, { title: `v${i}` })).status).toBe(200);
    const missing = await stranger.get(`/pages/${randomUUID()}/history?limit=1`);
    const existing = await stranger.get(`/pages/${pageId}/history?limit=1`);
    expect(missing.status).toBe(404);
    expect([existing.status, existing.body]).toEqual([missing.status, missing.body]);
    expect((await owner.delete(`/pages/${pageId}`)).status).toBe(204);
    const deleted = await stranger.get(`/pages/${pageId}/history?limit=1`);
    expect([deleted.status, deleted.body]).toEqual([missing.status, missing.body]);
    expect((await owner.get(`/pages/${pageId}/history?limit=1`)).body.data).toHaveLength(1);
  });

  it("shows grants to those who may share, never to a viewer, and names users without their email", async () => {
    const owner = await server.registered("owner");
    const viewer = await server.registered("viewer", { name: "Vera Viewer" });
    const admin = await server.registered("admin");
    const pageId = await createPage(owner);
    await share(owner, "page", pageId, viewer.email, "view");
    await share(owner, "page", pageId, admin.email, "admin");
    const seenByAdmin = await admin.get(`/pages/${pageId}/history?order=asc`);
    const grants = itemsOf(seenByAdmin.body).filter((item) => item.type === "AccessGranted");
    expect(grants.map((item) => item.changes)).toEqual([
      {
        kind: "grant",
        user: { id: viewer.id, name: "Vera Viewer" },
        permission: "view",
        previousPermission: null,
        viaInvitation: false,
      },
      expect.objectContaining({ kind: "grant", permission: "admin" }),
    ]);
    const token = await owner.post("/tokens", { name: "script", scopes: ["pages:read"] });
    const secret = String(token.body.token);
    expect(secret.startsWith("pat_")).toBe(true);
    const seenByOwner = await owner.get(`/pages/${pageId}/history`);
    expect(seenByOwner.text).not.toContain(secret);
    expect(seenByOwner.text).not.toContain("pat_");
    expect(seenByOwner.text).not.toContain("@example.com");
    expect(seenByAdmin.text).not.toContain(viewer.email);
    expect(seenByAdmin.text).not.toContain(owner.email);
    const seenByViewer = await viewer.get(`/pages/${pageId}/history`);
    expect(seenByViewer.status).toBe(200);
    expect(itemsOf(seenByViewer.body).map((item) => item.type)).toEqual(["PageCreated"]);
    expect(seenByViewer.text).not.toContain(admin.id);
  });

  it("lists a revocation with the permission it took away", async () => {
    const owner = await server.registered("owner");
    const ann = await server.registered("ann");
    const pageId = await createPage(owner);
    await share(owner, "page", pageId, ann.email, "edit");
    expect((await owner.delete(`/shares/entity/page/${pageId}/grants/${ann.id}`)).status).toBeLessThan(300);
    const items = itemsOf((await owner.get(`/pages/${pageId}/history`)).body);
    expect(items[0]?.changes).toEqual({
      kind: "revoke",
      user: { id: ann.id, name: "ann" },
      previousPermission: "edit",
    });
  });
});

describe("folder history", () => {
  it("lists the folder's creation and its grants to the owner; 404 to a stranger", async () => {
    const owner = await server.registered("owner");
    const ann = await server.registered("ann");
    const stranger = await server.registered("stranger");
    const folderId = await createFolder(owner, { name: "Projects" });
    await share(owner, "folder", folderId, ann.email, "comment");
    const reply = await owner.get(`/folders/${folderId}/history?order=asc`);
    expect(reply.status).toBe(200);
    expect(itemsOf(reply.body).map((item) => item.changes.kind)).toEqual(["created", "grant"]);
    expect(itemsOf(reply.body)[0]?.changes).toEqual({
      kind: "created",
      title: "Projects",
      icon: null,
      parentId: null,
      size: 0,
    });
    const seenByAnn = await ann.get(`/folders/${folderId}/history`);
    expect(itemsOf(seenByAnn.body).map((item) => item.changes.kind)).toEqual(["created"]);
    expect((await stranger.get(`/folders/${folderId}/history`)).status).toBe(404);
  });
});

describe("history of moves and folder changes", () => {
  it("shows a page's move with where it came from and went, and a folder's rename, move and icon", async () => {
    const owner = await server.registered("mover");
    const from = await createFolder(owner, { name: "From" });
    const to = await createFolder(owner, { name: "To" });
    const pageId = await createPage(owner, { title: "Travelling", parentId: from });
    expect((await owner.post(`/pages/${pageId}/move`, { parentId: to })).status).toBe(200);
    const pageChanges = itemsOf((await owner.get(`/pages/${pageId}/history?order=asc`)).body).map(
      (item) => item.changes,
    );
    expect(pageChanges.at(-1)).toEqual({ kind: "moved", from, to });

    expect((await owner.patch(`/folders/${from}`, { name: "Origin", icon: "📦" })).status).toBe(200);
    expect((await owner.post(`/folders/${from}/move`, { parentId: to })).status).toBe(200);
    const folderChanges = itemsOf((await owner.get(`/folders/${from}/history?order=asc`)).body).map(
      (item) => item.changes,
    );
    expect(folderChanges).toEqual(
      expect.arrayContaining([
        { kind: "title", from: "From", to: "Origin" },
        { kind: "icon", from: null, to: "📦" },
        { kind: "moved", from: null, to },
      ]),
    );
  });
});

describe("reading a page as of an instant", () => {
  it("answers the page and its content as they were at a position or a time between edits", async () => {
    const owner = await server.registered("owner");
    const { pageId, positions } = await editedPage(owner);
    const afterRename = await owner.get(`/pages/${pageId}?at=${positions[1]}`);
    expect(afterRename.status).toBe(200);
    expect(afterRename.body).toMatchObject({ id: pageId, title: "Plan", permission: "owner" });
    const content = await owner.get(`/pages/${pageId}/content?at=${positions[1]}`);
    expect(content.status).toBe(200);
    expect(content.text).toContain('title: "Plan"');
    expect(content.text.endsWith("---\none\ntwo\n")).toBe(true);
    const created = await owner.get(`/pages/${pageId}/content?at=${positions[0]}`);
    expect(created.text).toContain('title: "Draft"');
    const items = itemsOf((await owner.get(`/pages/${pageId}/history?order=asc`)).body);
    const byTime = await owner.get(`/pages/${pageId}?at=${encodeURIComponent(items[2]?.occurredAt ?? "")}`);
    expect(byTime.body.title).toBe("Plan");
    const now = await owner.get(`/pages/${pageId}/content?at=${encodeURIComponent(new Date().toISOString())}`);
    expect(now.text.endsWith("---\none\nthree\nfour\n")).toBe(true);
  });

  it("is 404 before the page existed and after it was deleted, and 400 in the future", async () => {
    const owner = await server.registered("owner");
    const before = new Date(Date.now() - 60_000).toISOString();
    const { pageId, positions } = await editedPage(owner);
    expect((await owner.get(`/pages/${pageId}?at=${encodeURIComponent(before)}`)).status).toBe(404);
    expect((await owner.get(`/pages/${pageId}?at=${Number(positions[0]) - 1}`)).status).toBe(404);
    expect((await owner.delete(`/pages/${pageId}`)).status).toBe(204);
    const deletedAt = itemsOf((await owner.get(`/pages/${pageId}/history`)).body)[0];
    expect(deletedAt?.type).toBe("PageDeleted");
    expect((await owner.get(`/pages/${pageId}?at=${deletedAt?.position}`)).status).toBe(404);
    const beforeDeletion = await owner.get(`/pages/${pageId}/content?at=${positions[2]}`);
    expect(beforeDeletion.status).toBe(200);
    expect(beforeDeletion.text.endsWith("one\nthree\nfour\n")).toBe(true);
    const future = await owner.get(
      `/pages/${pageId}?at=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`,
    );
    expect(future.status).toBe(400);
    expect(future.body.error?.code).toBe("validation_failed");
    expect((await owner.get(`/pages/${pageId}?at=99999999999`)).status).toBe(400);
    expect((await owner.get(`/pages/${pageId}?at=yesterday`)).status).toBe(400);
  });

  it("checks access with today's permission: a revoked grantee cannot read an earlier state", async () => {
    const owner = await server.registered("owner");
    const ann = await server.registered("ann");
    const { pageId, positions } = await editedPage(owner);
    await share(owner, "page", pageId, ann.email, "view");
    expect((await ann.get(`/pages/${pageId}?at=${positions[0]}`)).status).toBe(200);
    await owner.delete(`/shares/entity/page/${pageId}/grants/${ann.id}`);
    expect((await ann.get(`/pages/${pageId}?at=${positions[0]}`)).status).toBe(404);
    expect((await ann.get(`/pages/${pageId}/content?at=${positions[0]}`)).status).toBe(404);
  });
});

describe("restoring a page", () => {
  it("makes title, icon and content those of the instant as a new change, keeping history", async () => {
    const owner = await server.registered("owner");
    const { pageId, positions } = await editedPage(owner);
    const reply = await owner.call("POST", `/pages/${pageId}/restore`, {
      json: { at: positions[0] },
      headers: { "if-match": await etag(owner, pageId) },
    });
    expect(reply.status).toBe(200);
    expect(reply.text.endsWith("---\none\ntwo\n")).toBe(true);
    expect(reply.headers.get("etag")).toBe(`"${pageId}.3"`);
    expect((await owner.get(`/pages/${pageId}`)).body.title).toBe("Draft");
    const items = itemsOf((await owner.get(`/pages/${pageId}/history?order=asc`)).body);
    expect(items.map((item) => item.type)).toEqual([
      "PageCreated",
      "PageRenamed",
      "PageContentReplaced",
      "PageRestored",
    ]);
    expect(items[3]?.changes).toMatchObject({
      kind: "restored",
      restoredFrom: positions[0],
      title: { from: "Plan", to: "Draft" },
    });
    expect((await owner.get(`/pages/${pageId}/content?at=${positions[2]}`)).text.endsWith("one\nthree\nfour\n")).toBe(
      true,
    );
  });

  it("needs If-Match naming the current revision: 428 without it, 412 with a stale one", async () => {
    const owner = await server.registered("owner");
    const { pageId, positions } = await editedPage(owner);
    const missing = await owner.post(`/pages/${pageId}/restore`, { at: positions[0] });
    expect(missing.status).toBe(428);
    const stale = await owner.call("POST", `/pages/${pageId}/restore`, {
      json: { at: positions[0] },
      headers: { "if-match": `"${pageId}.0"` },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.error?.code).toBe("precondition_failed");
    expect((await owner.get(`/pages/${pageId}`)).body.title).toBe("Plan");
  });

  it("needs edit permission and pages:write; refuses an instant before the page or in the future", async () => {
    const owner = await server.registered("owner");
    const viewer = await server.registered("viewer");
    const stranger = await server.registered("stranger");
    const { pageId, positions } = await editedPage(owner);
    await share(owner, "page", pageId, viewer.email, "view");
    const headers = { "if-match": await etag(owner, pageId) };
    const body = { json: { at: positions[0] }, headers };
    expect((await viewer.call("POST", `/pages/${pageId}/restore`, body)).status).toBe(403);
    expect((await stranger.call("POST", `/pages/${pageId}/restore`, body)).status).toBe(404);
    const readOnly = await server.tokenClient(owner, ["pages:read"]);
    expect((await readOnly.call("POST", `/pages/${pageId}/restore`, body)).status).toBe(403);
    const early = await owner.call("POST", `/pages/${pageId}/restore`, {
      json: { at: String(Number(positions[0]) - 1) },
      headers,
    });
    expect(early.status).toBe(400);
    const future = await owner.call("POST", `/pages/${pageId}/restore`, {
      json: { at: new Date(Date.now() + 3_600_000).toISOString() },
      headers,
    });
    expect(future.status).toBe(400);
  });
});

describe("events stored in an older shape", () => {
  it("a PageRenamed stored as version 1 is read as version 2: the page, its history and ?at= show it, and the store keeps it as written", async () => {
    const owner = await server.registered("owner");
    const pageId = await createPage(owner, { title: "Draft" });
    const { eventStore } = server.internals;
    const stream = `page-${pageId}`;
    const metadata = {
      actorId: owner.id,
      correlationId: "old-shape",
      causationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    };
    const { position } = await eventStore.append(
      stream,
      [{ id: randomUUID(), type: "PageRenamed", data: { pageId, title: "Old shape" }, metadata }],
      0,
    );
    const consistency = { "x-consistency-token": String(position) };
    expect((await owner.get(`/pages/${pageId}`, consistency)).body.title).toBe("Old shape");
    const items = itemsOf((await owner.get(`/pages/${pageId}/history`, consistency)).body);
    expect(items[0]).toMatchObject({
      type: "PageRenamed",
      position: String(position),
      changes: { kind: "title", from: "Draft", to: "Old shape" },
    });
    expect((await owner.get(`/pages/${pageId}?at=${position}`)).body.title).toBe("Old shape");
    const { events } = await eventStore.read(stream);
    expect(events[1]?.data).toEqual({ pageId, title: "Old shape" });
    expect(events[1]?.metadata.schemaVersion).toBe(1);
  });
});
