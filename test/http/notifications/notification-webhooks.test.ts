// `notification.created` webhooks from the outside: a user's webhook hears of that user's own notifications by
// ids, nobody else's webhook (even one subscribed to everything) hears of them, and an erased user's hear nothing
// more.
import { describe, expect, it } from "vitest";
import { commentedPage, openThread } from "../../support/threads.ts";
import type { TestUser } from "../../support/server.ts";
import { serverForFile } from "../../support/server-for-file.ts";
import { receiversForFile, type WebhookReceiver } from "../../support/webhook-receiver.ts";
import { createFolder, createPage, share } from "../../support/workspace-builders.ts";

const file = serverForFile({ settings: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", WEBHOOK_FIRST_RETRY_MS: "20" } });
const receiver = receiversForFile();

const mention = (user: TestUser) => `[@${user.name}](mention:${user.id})`;

async function hook(user: TestUser, endpoint: WebhookReceiver, events: string[]): Promise<string> {
  const reply = await user.post("/webhooks", { url: endpoint.url, events });
  expect(reply.status, reply.text).toBe(201);
  return String(reply.body.id);
}

async function deliveryTypes(user: TestUser, webhookId: string): Promise<string[]> {
  const reply = await user.get(`/webhooks/${webhookId}/deliveries`);
  expect(reply.status, reply.text).toBe(200);
  return (reply.body.data as { type: string }[]).map((delivery) => delivery.type);
}

async function pageWithThread(ann: TestUser, bob: TestUser): Promise<{ pageId: string; threadId: string }> {
  const pageId = await createPage(ann, { markdown: "Some text before the quoted words and after." });
  expect((await share(ann, "page", pageId, bob.email, "comment")).status).toBe(200);
  const thread = await openThread(bob, pageId, "bob's question");
  return { pageId, threadId: thread.id };
}

describe("notification.created webhooks", () => {
  it("send a user their own mention and reply notifications, and nothing of them to anyone else's webhook", async () => {
    const ann = await file.server.registered("ann");
    const bob = await file.server.registered("bob");
    const bobs = await receiver();
    const anns = await receiver();
    await hook(bob, bobs, ["notification.created"]);
    const annHook = await hook(ann, anns, ["*"]);
    const { pageId, threadId } = await pageWithThread(ann, bob);

    const replied = await ann.post(`/pages/${pageId}/comments/${threadId}/replies`, { body: "an answer" });
    expect(replied.status, replied.text).toBe(201);
    const mentioned = await ann.post(`/pages/${pageId}/comments`, {
      body: `Look, ${mention(bob)}`,
      anchor: { quote: "the quoted words", prefix: "text before ", suffix: " text after" },
    });
    expect(mentioned.status, mentioned.text).toBe(201);

    // The share that lets Bob comment is a notification of his too.
    const received = await bobs.waitFor(3);
    const listed = (await bob.get("/notifications")).body.data as { id: string; kind: string; createdAt: string }[];
    expect(received.map((delivery) => delivery.json.type)).toEqual(Array(3).fill("notification.created"));
    const bodies = received.map((delivery) => delivery.json.data);
    expect(bodies.map((data) => data.kind).sort()).toEqual(["mentioned", "replied", "shared"]);
    for (const data of bodies) {
      const notification = listed.find((item) => item.id === data.notificationId);
      expect(notification).toBeDefined();
      expect(data).toMatchObject({
        kind: notification?.kind,
        actorId: ann.id,
        pageId,
        createdAt: notification?.createdAt,
      });
    }
    expect(bodies.find((data) => data.kind === "replied")).toMatchObject({ threadId });
    for (const delivery of received) expect(delivery.body).not.toContain("an answer");

    // Ann's webhook takes every event: once it has a page created after them, it would have had Bob's notifications.
    await createPage(ann);
    const pagesCreated = async () =>
      (await deliveryTypes(ann, annHook)).filter((type) => type === "page.created").length;
    const until = Date.now() + 20_000;
    while ((await pagesCreated()) < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await pagesCreated()).toBe(2);
    expect(await deliveryTypes(ann, annHook)).not.toContain("notification.created");
    expect(anns.received.map((delivery) => delivery.json.type)).not.toContain("notification.created");
  });

  it("sends a folder's webhook only the notifications about what is inside that folder", async () => {
    const ann = await file.server.registered("ann-folder");
    const bob = await file.server.registered("bob-folder");
    const bobs = await receiver();
    const folderId = await createFolder(ann);
    expect((await share(ann, "folder", folderId, bob.email, "comment")).status).toBe(200);
    const folderHook = await bob.post("/webhooks", { url: bobs.url, events: ["notification.created"], folderId });
    expect(folderHook.status, folderHook.text).toBe(201);
    const outside = await pageWithThread(ann, bob);
    const inside = await createPage(ann, { parentId: folderId, markdown: commentedPage.markdown });
    const insideThread = await openThread(bob, inside, "inside question");
    const answer = (pageId: string, threadId: string) =>
      ann.post(`/pages/${pageId}/comments/${threadId}/replies`, { body: "an answer" });
    expect((await answer(outside.pageId, outside.threadId)).status).toBe(201);
    expect((await answer(inside, insideThread.id)).status).toBe(201);

    // The inside reply came last: every notification before it (the outside page's share and reply) was matched
    // by the time it arrives. The folder's share came before the webhook existed.
    const received = await bobs.waitFor(1);
    expect(received.map((delivery) => delivery.json.data)).toEqual([
      expect.objectContaining({ kind: "replied", pageId: inside, threadId: insideThread.id }),
    ]);
    expect(await deliveryTypes(bob, String(folderHook.body.id))).toEqual(["notification.created"]);
  });

  it("names the group of a group_added notification", async () => {
    const ann = await file.server.registered("ann-group");
    const bob = await file.server.registered("bob-group");
    const bobs = await receiver();
    await hook(bob, bobs, ["notification.created"]);
    const created = await ann.post("/groups", { name: "Crew" });
    expect(created.status, created.text).toBe(201);
    const groupId = String(created.body.id);
    expect((await ann.post(`/groups/${groupId}/members`, { email: bob.email })).status).toBe(200);

    const [delivery] = await bobs.waitFor(1);
    expect(delivery?.json.data).toMatchObject({ kind: "group_added", groupId, pageId: null, folderId: null });
  });

  it("sends an erased user's webhooks nothing more", async () => {
    const ann = await file.server.registered("ann-erased");
    const bob = await file.server.registered("bob-erased");
    const bobs = await receiver();
    const anns = await receiver();
    await hook(bob, bobs, ["notification.created"]);
    const annHook = await hook(ann, anns, ["comment.created"]);
    const { pageId, threadId } = await pageWithThread(ann, bob);
    expect((await ann.post(`/pages/${pageId}/comments/${threadId}/replies`, { body: "first" })).status).toBe(201);
    await bobs.waitFor(2);

    const erased = await bob.call("DELETE", "/me", { json: { confirm: bob.email } });
    expect(erased.status, erased.text).toBe(204);
    expect((await ann.post(`/pages/${pageId}/comments/${threadId}/replies`, { body: "second" })).status).toBe(201);
    await ann.post(`/pages/${pageId}/comments`, {
      body: `Still there, ${mention(bob)}?`,
      anchor: { quote: "the quoted words", prefix: "text before ", suffix: " text after" },
    });
    // Ann's webhook has the later comments (Bob's thread, two replies, the mention): Bob's would have been matched.
    await anns.waitFor(4);
    expect(await deliveryTypes(ann, annHook)).toHaveLength(4);
    expect(bobs.received.map((delivery) => delivery.json.data.kind)).toEqual(["shared", "replied"]);
  });
});
