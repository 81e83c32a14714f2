// A user's own notifications on their change feed: each created or updated notification is an event
// `notification` carrying the item GET /notifications lists, in log order with the changes, its position as the
// event id; nobody else's feed gets it, one about what the reader can no longer view is left out, and a feed
// resumed after an id gets neither the change nor the notification of that position again.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { commentedPage, openThread } from "../../support/threads.ts";
import { TestServer, type TestUser } from "../../support/server.ts";
import { SseStream } from "../../support/sse.ts";
import { createPage, share } from "../../support/workspace-builders.ts";

let server: TestServer;
const streams: SseStream[] = [];
beforeAll(async () => {
  server = await TestServer.start({ settings: { CHANGE_FEED_HEARTBEAT_MS: "200" } });
});
afterEach(() => {
  for (const stream of streams.splice(0)) stream.close();
});
afterAll(async () => {
  await server.stop();
});

async function feed(user: TestUser, headers: Record<string, string> = {}, query = ""): Promise<SseStream> {
  const stream = await SseStream.open(`${server.url}/api/v1/changes${query}`, user.credentials, headers);
  expect(stream.status).toBe(200);
  streams.push(stream);
  return stream;
}

/** A thread Bob started on a page of Ann's he may comment on: Ann's replies notify him. */
async function bobsThread(ann: TestUser, bob: TestUser): Promise<{ pageId: string; threadId: string }> {
  const pageId = await createPage(ann, commentedPage);
  expect((await share(ann, "page", pageId, bob.email, "comment")).status).toBe(200);
  const thread = await openThread(bob, pageId);
  return { pageId, threadId: thread.id };
}

async function reply(ann: TestUser, place: { pageId: string; threadId: string }, body: string): Promise<string> {
  const replied = await ann.post(`/pages/${place.pageId}/comments/${place.threadId}/replies`, { body });
  expect(replied.status, replied.text).toBe(201);
  return replied.headers.get("x-consistency-token") ?? "";
}

const positionOf = (reply: { headers: Headers }): string => reply.headers.get("x-consistency-token") ?? "";

describe("notifications on the change feed", () => {
  it("delivers a user's notifications as they are created and updated, as the list shows them, to nobody else", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const cat = await server.registered("cat");
    const bobs = await feed(bob);
    const cats = await feed(cat);
    const place = await bobsThread(ann, bob);
    const first = await reply(ann, place, "one");
    const second = await reply(ann, place, "two");
    await bobs.until(() => bobs.notifications().length >= 3);

    const told = bobs.notifications();
    expect(told.map((n) => n.kind)).toEqual(["shared", "replied", "replied"]);
    expect(told[1]?.id).toBe(told[2]?.id);
    expect(told[2]?.count).toBe(2);
    const listed = (await bob.get("/notifications")).body.data as unknown[];
    expect(told[2]).toEqual(listed[0]);
    expect(told[0]).toEqual(listed[1]);

    // The reply's change and the notification it made share its position: the change first, both with its id.
    const atFirst = bobs.events.filter((event) => event.id === first).map((event) => event.event);
    expect(atFirst).toEqual(["change", "notification"]);
    const atSecond = bobs.events.filter((event) => event.id === second).map((event) => event.event);
    expect(atSecond).toEqual(["change", "notification"]);
    const ids = bobs.events.map((event) => BigInt(event.id ?? "0"));
    expect([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(ids);

    await createPage(cat, { title: "Cat's marker" });
    await cats.until(() => cats.changes().length >= 1);
    expect(cats.notifications()).toEqual([]);
    expect(cats.events.map((event) => event.data).join("")).not.toContain(told[1]?.id ?? "none");
  });

  it("resumes after Last-Event-ID with no gap and no repeat: a position's change and notification are skipped together", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const place = await bobsThread(ann, bob);
    // Created before the feed's first id: once shared, its creation is no change the resumed feed catches up on.
    const otherPage = await createPage(ann, { title: "Also for Bob" });
    const first = await feed(bob);
    const afterFirst = await reply(ann, place, "one");
    await first.until(() => first.notifications().length >= 1);
    expect(first.events.at(-1)?.id).toBe(afterFirst);
    first.close();

    const second = await reply(ann, place, "two");
    const shared = await share(ann, "page", otherPage, bob.email, "view");
    const resumed = await feed(bob, { "last-event-id": afterFirst });
    await resumed.until(() => resumed.notifications().length >= 2);
    expect(resumed.events.map((event) => [event.id, event.event])).toEqual([
      [second, "change"],
      [second, "notification"],
      [positionOf(shared), "notification"],
    ]);
    expect(resumed.notifications()).toEqual([
      expect.objectContaining({ kind: "replied", count: 2 }),
      expect.objectContaining({ kind: "shared", pageId: otherPage }),
    ]);
  });

  it("leaves out notifications about what the reader can no longer view, as the list does", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const start = positionOf(await bob.post("/pages", { title: "Bob's start", markdown: "x" }));
    const revoked = await createPage(ann, { title: "Taken back" });
    expect((await share(ann, "page", revoked, bob.email, "view")).status).toBe(200);
    expect((await ann.delete(`/shares/entity/page/${revoked}/grants/${bob.id}`)).status).toBeLessThan(300);
    const group = await ann.post("/groups", { name: "Left" });
    const groupId = String(group.body.id);
    expect((await ann.post(`/groups/${groupId}/members`, { email: bob.email })).status).toBe(200);
    expect((await ann.delete(`/groups/${groupId}/members/${bob.id}`)).status).toBe(204);
    const kept = await createPage(ann, { title: "Still shared" });
    expect((await share(ann, "page", kept, bob.email, "view")).status).toBe(200);
    const marker = await createPage(bob, { title: "Bob's marker" });

    const stream = await feed(bob, {}, `?after=${start}`);
    await stream.until(() => stream.changes().some((change) => change.entity.id === marker));
    expect(stream.notifications()).toEqual([expect.objectContaining({ kind: "shared", pageId: kept })]);
    const listed = (await bob.get("/notifications")).body.data as Array<{ kind: string; pageId?: string }>;
    expect(listed.map((n) => [n.kind, n.pageId])).toEqual([["shared", kept]]);
  });
});
