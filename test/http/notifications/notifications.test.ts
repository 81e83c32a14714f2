// Notifications seen from the reader's side: who is told of a reply, a resolution and a share, and who is not;
// replies in one thread within the hour coalesce; a notification about what the reader can no longer view is
// gone; nobody marks another's notification.
import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openThread } from "../../support/threads.ts";
import { TestServer, type TestUser } from "../../support/server.ts";
import { createPage } from "../../support/workspace-builders.ts";
import { notificationsOf } from "../../support/notifications.ts";

let now = Date.parse("2026-03-02T09:00:00Z");
let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start({ clock: () => new Date(now) });
});
afterAll(async () => {
  await server.stop();
});

async function shareWith(owner: TestUser, pageId: string, grantee: TestUser, permission = "comment"): Promise<void> {
  const reply = await owner.post(`/shares/entity/page/${pageId}/grants`, { email: grantee.email, permission });
  expect(reply.status, reply.text).toBe(200);
}

describe("notifications of replies", () => {
  it("tells the thread's writers of a reply, never its author, and coalesces replies within the hour", async () => {
    const ann = await server.registered("ann-replies");
    const bob = await server.registered("bob-replies");
    const cat = await server.registered("cat-replies");
    const pageId = await createPage(ann, { markdown: "Some text before the quoted words and after." });
    await shareWith(ann, pageId, bob);
    await shareWith(ann, pageId, cat);
    const thread = await openThread(ann, pageId);
    expect((await bob.post(`/pages/${pageId}/comments/${thread.id}/replies`, { body: "first reply" })).status).toBe(
      201,
    );

    const annsFirst = (await notificationsOf(ann)).data.filter((n) => n.kind === "replied");
    expect(annsFirst).toEqual([
      expect.objectContaining({ kind: "replied", actorId: bob.id, pageId, threadId: thread.id, readAt: null }),
    ]);
    expect((await notificationsOf(bob)).data.filter((n) => n.kind === "replied")).toEqual([]);

    now += 10 * 60 * 1000;
    expect((await cat.post(`/pages/${pageId}/comments/${thread.id}/replies`, { body: "second reply" })).status).toBe(
      201,
    );
    const annsCoalesced = (await notificationsOf(ann)).data.filter((n) => n.kind === "replied");
    expect(annsCoalesced).toHaveLength(1);
    expect(annsCoalesced[0]).toMatchObject({
      id: annsFirst[0]?.id,
      actorId: cat.id,
      count: 2,
      actorIds: [cat.id, bob.id],
    });
    // Bob wrote in the thread: Cat's reply reaches him too; Cat is told of nothing she did.
    expect((await notificationsOf(bob)).data.filter((n) => n.kind === "replied")).toEqual([
      expect.objectContaining({ actorId: cat.id }),
    ]);
    expect((await notificationsOf(cat)).data.filter((n) => n.kind === "replied")).toEqual([]);

    now += 61 * 60 * 1000;
    expect((await bob.post(`/pages/${pageId}/comments/${thread.id}/replies`, { body: "an hour later" })).status).toBe(
      201,
    );
    expect((await notificationsOf(ann)).data.filter((n) => n.kind === "replied")).toHaveLength(2);
  });

  it("tells the thread's starter it was resolved or reopened by someone else, and nobody of their own", async () => {
    const ann = await server.registered("ann-resolve");
    const bob = await server.registered("bob-resolve");
    const pageId = await createPage(ann, { markdown: "Some text before the quoted words and after." });
    await shareWith(ann, pageId, bob);
    const thread = await openThread(bob, pageId);
    expect((await ann.patch(`/pages/${pageId}/comments/${thread.id}/status`, { status: "resolved" })).status).toBe(200);
    expect((await bob.patch(`/pages/${pageId}/comments/${thread.id}/status`, { status: "open" })).status).toBe(200);
    expect((await notificationsOf(bob)).data.map((n) => n.kind)).toEqual(["thread_resolved", "shared"]);
    expect((await notificationsOf(ann)).data.map((n) => n.kind)).toEqual([]);
  });
});

describe("a notification about what the reader can no longer view", () => {
  it("is gone from the list and the unread count once access is lost", async () => {
    const ann = await server.registered("ann-lost");
    const bob = await server.registered("bob-lost");
    const pageId = await createPage(ann);
    await shareWith(ann, pageId, bob, "view");
    const before = await notificationsOf(bob);
    expect(before.data).toEqual([expect.objectContaining({ kind: "shared", actorId: ann.id, pageId })]);
    expect(before.unreadCount).toBe(1);
    expect((await ann.delete(`/shares/entity/page/${pageId}/grants/${bob.id}`)).status).toBe(204);
    const after = await notificationsOf(bob);
    expect(after.data).toEqual([]);
    expect(after.unreadCount).toBe(0);
    // Marking it is answered as for an id that never existed.
    expect((await bob.post("/notifications/read", { ids: [before.data[0]?.id] })).status).toBe(404);
  });
});

describe("marking notifications read", () => {
  it("marks the reader's own; another's answers 404 and stays unread", async () => {
    const ann = await server.registered("ann-mark");
    const bob = await server.registered("bob-mark");
    const eve = await server.registered("eve-mark");
    await shareWith(ann, await createPage(ann), bob, "view");
    await shareWith(ann, await createPage(ann), bob, "view");
    const [newest, oldest] = (await notificationsOf(bob)).data;
    expect(newest).toBeDefined();
    expect((await eve.post("/notifications/read", { ids: [newest?.id] })).status).toBe(404);
    expect((await notificationsOf(bob)).unreadCount).toBe(2);

    expect((await bob.post("/notifications/read", { ids: [newest?.id] })).status).toBe(204);
    const unread = await notificationsOf(bob, "?unread=true");
    expect(unread.data.map((n) => n.id)).toEqual([oldest?.id]);
    expect(unread.unreadCount).toBe(1);
    expect((await bob.post("/notifications/read", { all: true })).status).toBe(204);
    const all = await notificationsOf(bob);
    expect(all.unreadCount).toBe(0);
    expect(all.data.every((n) => n.readAt !== null)).toBe(true);
    expect((await bob.post("/notifications/read", { ids: [] })).status).toBe(400);
  });

  it("pages through the list with its cursor", async () => {
    const ann = await server.registered("ann-pages");
    const bob = await server.registered("bob-pages");
    for (let i = 0; i < 3; i += 1) await shareWith(ann, await createPage(ann), bob, "view");
    const first = await notificationsOf(bob, "?limit=2");
    expect(first.data).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = await notificationsOf(bob, `?limit=2&cursor=${first.nextCursor ?? ""}`);
    expect(second.data).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
  });
});

describe("erasing an account", () => {
  it("takes the user's notifications with it", async () => {
    const ann = await server.registered("ann-erase");
    const bob = await server.registered("bob-erase");
    await shareWith(ann, await createPage(ann), bob, "view");
    expect((await notificationsOf(bob)).data).toHaveLength(1);
    expect((await bob.call("DELETE", "/me", { json: { confirm: bob.email } })).status).toBe(204);
    const readModels = new Database(join(server.dataDir, "read-models.sqlite"), { readonly: true });
    try {
      expect(readModels.prepare("SELECT count(*) AS n FROM notifications WHERE user_id = ?").get(bob.id)).toEqual({
        n: 0,
      });
    } finally {
      readModels.close();
    }
  });
});
