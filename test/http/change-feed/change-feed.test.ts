import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type Client, type TestUser } from "../../support/server.ts";
import { SseStream } from "../../support/sse.ts";
import { createFolder, createPage, share } from "../../support/workspace-builders.ts";

let server: TestServer;
const streams: SseStream[] = [];
beforeAll(async () => {
  server = await TestServer.start({ settings: { CHANGE_FEED_HEARTBEAT_MS: "200", CHANGE_FEED_MAX_PER_USER: "3" } });
});
afterEach(() => {
  for (const stream of streams.splice(0)) stream.close();
});
afterAll(async () => {
  await server.stop();
});

async function feed(user: TestUser, headers: Record<string, string> = {}, query = ""): Promise<SseStream> {
  const stream = await SseStream.open(`${server.url}/api/v1/changes${query}`, user.credentials, headers);
  streams.push(stream);
  return stream;
}

const rename = (client: Client, pageId: string, title: string) => client.patch(`/pages/${pageId}`, { title });

describe("the change feed", () => {
  it("streams the changes the caller can see as they happen, each with its position as the event id", async () => {
    const owner = await server.registered("owner");
    const stranger = await server.registered("stranger");
    const mine = await feed(owner);
    const theirs = await feed(stranger);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-type")).toContain("text/event-stream");
    const pageId = await createPage(owner, { title: "A" });
    const renamed = await rename(owner, pageId, "B");
    await mine.until(() => mine.changes().length >= 2);
    const [created, title] = mine.changes();
    expect(created).toMatchObject({
      type: "PageCreated",
      entity: { kind: "page", id: pageId },
      changes: { kind: "created" },
    });
    expect(title).toMatchObject({ type: "PageRenamed", changes: { kind: "title", from: "A", to: "B" } });
    expect(mine.events[1]?.id).toBe(renamed.headers.get("x-consistency-token"));
    await theirs.until(() => theirs.comments.includes("heartbeat"));
    expect(theirs.changes()).toEqual([]);
  });

  it("includes folders and comment threads, and keeps grants from those who may not share", async () => {
    const owner = await server.registered("owner");
    const viewer = await server.registered("viewer");
    const folderId = await createFolder(owner);
    await share(owner, "folder", folderId, viewer.email, "view");
    const stream = await feed(viewer);
    const ownerStream = await feed(owner);
    const pageId = await createPage(owner, { parentId: folderId, markdown: "Some words here" });
    const other = await server.registered("other");
    await share(owner, "page", pageId, other.email, "view");
    const thread = await owner.post(`/pages/${pageId}/comments`, {
      anchor: { quote: "words", prefix: "Some ", suffix: " here" },
      body: "Why?",
    });
    expect(thread.status).toBe(201);
    await stream.until(() => stream.changes().some((change) => change.entity.kind === "thread"));
    await ownerStream.until(() => ownerStream.changes().some((change) => change.entity.kind === "thread"));
    expect(stream.changes().map((change) => change.type)).toEqual(["PageCreated", "ThreadOpened", "CommentAdded"]);
    expect(ownerStream.changes().map((change) => change.type)).toEqual([
      "PageCreated",
      "AccessGranted",
      "ThreadOpened",
      "CommentAdded",
    ]);
    expect(stream.events.map((event) => event.data).join("")).not.toContain(other.email);
  });

  it("resumes after Last-Event-ID or ?after= without a gap or a repeat", async () => {
    const owner = await server.registered("owner");
    const pageId = await createPage(owner, { title: "v0" });
    const first = await feed(owner);
    await rename(owner, pageId, "v1");
    await first.until(() => first.changes().length === 1);
    const lastId = first.events[0]?.id ?? "";
    first.close();
    await rename(owner, pageId, "v2");
    await rename(owner, pageId, "v3");
    const resumed = await feed(owner, { "last-event-id": lastId });
    await resumed.until(() => resumed.changes().length >= 2);
    await rename(owner, pageId, "v4");
    await resumed.until(() => resumed.changes().length >= 3);
    expect(resumed.changes().map((change) => change.changes)).toEqual([
      { kind: "title", from: "v1", to: "v2" },
      { kind: "title", from: "v2", to: "v3" },
      { kind: "title", from: "v3", to: "v4" },
    ]);
    const byQuery = await feed(owner, {}, `?after=${lastId}`);
    await byQuery.until(() => byQuery.changes().length >= 3);
    expect(byQuery.events.map((event) => event.id)).toEqual(resumed.events.map((event) => event.id));
    const beyond = await SseStream.open(`${server.url}/api/v1/changes?after=999999999999`, owner.credentials);
    expect(beyond.status).toBe(400);
  });

  it("stops an entity's changes at once when the caller's grant is revoked", async () => {
    const owner = await server.registered("owner");
    const ann = await server.registered("ann");
    const shared = await createPage(owner, { title: "shared" });
    const stillShared = await createPage(owner, { title: "still" });
    await share(owner, "page", shared, ann.email, "view");
    await share(owner, "page", stillShared, ann.email, "view");
    const stream = await feed(ann);
    await rename(owner, shared, "seen");
    await stream.until(() => stream.changes().length === 1);
    expect((await owner.delete(`/shares/entity/page/${shared}/grants/${ann.id}`)).status).toBeLessThan(300);
    await rename(owner, shared, "hidden");
    await rename(owner, stillShared, "marker");
    await stream.until(() => stream.changes().some((change) => change.entity.id === stillShared));
    expect(stream.changes().map((change) => [change.entity.id, change.changes])).toEqual([
      [shared, { kind: "title", from: "shared", to: "seen" }],
      [stillShared, { kind: "title", from: "still", to: "marker" }],
    ]);
  });

  it("starts an entity's changes without reconnecting once the caller is granted access", async () => {
    const owner = await server.registered("owner");
    const ann = await server.registered("ann");
    const pageId = await createPage(owner, { title: "private" });
    const stream = await feed(ann);
    await rename(owner, pageId, "still private");
    await share(owner, "page", pageId, ann.email, "view");
    await rename(owner, pageId, "shared now");
    await stream.until(() => stream.changes().length >= 1);
    expect(stream.changes().map((change) => change.changes)).toEqual([
      { kind: "title", from: "still private", to: "shared now" },
    ]);
  });

  it("refuses a feed past the per-user bound with 429 until one closes; needs pages:read and a caller", async () => {
    const owner = await server.registered("owner");
    const open = [await feed(owner), await feed(owner), await feed(owner)];
    expect(open.map((stream) => stream.status)).toEqual([200, 200, 200]);
    const refused = await SseStream.open(`${server.url}/api/v1/changes`, owner.credentials);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text ?? "{}")).toMatchObject({ error: { code: "rate_limited" } });
    open[0]?.close();
    const deadline = Date.now() + 5_000;
    let again = await SseStream.open(`${server.url}/api/v1/changes`, owner.credentials);
    while (again.status === 429 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await SseStream.open(`${server.url}/api/v1/changes`, owner.credentials);
    }
    streams.push(again);
    expect(again.status).toBe(200);
    expect((await SseStream.open(`${server.url}/api/v1/changes`, null)).status).toBe(401);
    const writeOnly = await server.tokenClient(owner, ["pages:write"]);
    expect((await SseStream.open(`${server.url}/api/v1/changes`, writeOnly.credentials)).status).toBe(403);
  });
});

describe("a change feed's credential", () => {
  const open = async (credentials: { bearer: string } | { cookie: string }) => {
    const stream = await SseStream.open(`${server.url}/api/v1/changes`, credentials);
    streams.push(stream);
    return stream;
  };

  it("ends the feed when its API token is revoked, while the owner's session feed goes on", async () => {
    const owner = await server.registered("owner");
    const created = await owner.post("/tokens", { name: "feed", scopes: ["pages:read"] });
    const bearer = String(created.body.token);
    const byToken = await open({ bearer });
    const bySession = await feed(owner);
    expect(byToken.status).toBe(200);
    const pageId = await createPage(owner, { title: "before" });
    await byToken.until(() => byToken.changes().length >= 1);
    expect((await owner.delete(`/tokens/${String(created.body.id)}`)).status).toBe(204);
    await byToken.until(() => byToken.isEnded);
    await rename(owner, pageId, "after");
    await bySession.until(() => bySession.changes().length >= 2);
    expect(byToken.changes().map((change) => change.type)).toEqual(["PageCreated"]);
    expect((await SseStream.open(`${server.url}/api/v1/changes`, { bearer })).status).toBe(401);
  });

  it("ends the feed when the session that opened it expires", async () => {
    const user = await server.signIn("brief", { expiresInSeconds: 2 });
    expect((await user.get("/me")).status).toBe(200);
    const stream = await feed(user);
    expect(stream.status).toBe(200);
    await stream.until(() => stream.isEnded, 10_000);
    expect((await SseStream.open(`${server.url}/api/v1/changes`, user.credentials)).status).toBe(401);
  });

  it("ends the feed when the API token that opened it expires", async () => {
    const owner = await server.registered("owner");
    const created = await owner.post("/tokens", {
      name: "short",
      scopes: ["pages:read"],
      expiresAt: new Date(Date.now() + 2_000).toISOString(),
    });
    expect(created.status).toBe(201);
    const stream = await open({ bearer: String(created.body.token) });
    expect(stream.status).toBe(200);
    await stream.until(() => stream.isEnded, 10_000);
  });
});
