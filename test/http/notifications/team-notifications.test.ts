// The team layer's notifications from the reader's side: a mention reaches those who can view the page, once,
// and a write names the mentions that reach nobody; watchers of a page and of the folders above it hear of its
// content changes while they can view it; a group's members hear of what the group is given, and of being
// added to which group, and a removed member hears nothing further and no longer sees that they were added.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type Client, type TestUser } from "../../support/server.ts";
import { createFolder, createPage, share } from "../../support/workspace-builders.ts";
import { notificationsOf } from "../../support/notifications.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const kindsOf = async (user: TestUser, kind: string) =>
  (await notificationsOf(user)).data.filter((n) => n.kind === kind);
const mention = (user: TestUser) => `[@${user.name}](mention:${user.id})`;

async function replaceContent(user: Client, pageId: string, markdown: string) {
  const etag = (await user.get(`/pages/${pageId}/content`)).headers.get("etag") ?? "";
  const reply = await user.call("PUT", `/pages/${pageId}/content`, {
    body: markdown,
    headers: { "content-type": "text/markdown", "if-match": etag },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply;
}

async function shareWith(owner: TestUser, type: "page" | "folder", id: string, user: TestUser, permission = "view") {
  const reply = await share(owner, type, id, user.email, permission);
  expect(reply.status, reply.text).toBe(200);
}

describe("mentions", () => {
  it("tell a mentioned user who can view the page once, and name the mentions of an outsider as reaching nobody", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const outsider = await server.registered("outsider");
    const pageId = await createPage(ann, { title: "Plan", markdown: "draft" });
    await shareWith(ann, "page", pageId, bob);

    const text = `Ask ${mention(bob)} and ${mention(outsider)}`;
    const replaced = await replaceContent(ann, pageId, text);
    expect(replaced.headers.get("unreachable-mentions")).toBe(outsider.id);
    await replaceContent(ann, pageId, `${text}, again`);
    expect(await kindsOf(bob, "mentioned")).toEqual([expect.objectContaining({ actorId: ann.id, pageId })]);
    expect((await notificationsOf(outsider)).data).toEqual([]);
    // The outsider was granted nothing by the mention.
    expect((await outsider.get(`/pages/${pageId}`)).status).toBe(404);

    const appended = await ann.patch(`/pages/${pageId}/content`, { append: `\nand ${mention(outsider)}` });
    expect(appended.status, appended.text).toBe(200);
    expect(appended.headers.get("unreachable-mentions")).toBe(outsider.id);
    const plain = await ann.patch(`/pages/${pageId}/content`, { append: "\nno one" });
    expect(plain.headers.get("unreachable-mentions")).toBeNull();
  });

  it("in comments: a new thread, a reply and an edit each answer their unreachable mentions", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const outsider = await server.registered("outsider");
    const pageId = await createPage(ann, { markdown: "Some text before the quoted words and after." });
    await shareWith(ann, "page", pageId, bob, "comment");

    const anchor = { quote: "the quoted words", prefix: "text before ", suffix: " and after" };
    const opened = await ann.post(`/pages/${pageId}/comments`, { body: `${mention(outsider)} look`, anchor });
    expect(opened.status, opened.text).toBe(201);
    expect(opened.body.unreachableMentions).toEqual([outsider.id]);
    const threadId = String((opened.body.thread as { id: string }).id);

    const replied = await ann.post(`/pages/${pageId}/comments/${threadId}/replies`, { body: `${mention(bob)} too` });
    expect(replied.status, replied.text).toBe(201);
    expect(replied.body.unreachableMentions).toEqual([]);
    expect(await kindsOf(bob, "mentioned")).toEqual([expect.objectContaining({ pageId, threadId })]);
    expect((await notificationsOf(outsider)).data).toEqual([]);

    const comments = (replied.body.thread as { comments: { id: string }[] }).comments;
    const replyId = comments.at(-1)?.id ?? "";
    const edited = await ann.patch(`/pages/${pageId}/comments/${replyId}`, {
      body: `${mention(bob)} and ${mention(outsider)}`,
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.unreachableMentions).toEqual([outsider.id]);
    // Bob was mentioned there already: the edit tells him nothing new.
    expect(await kindsOf(bob, "mentioned")).toHaveLength(1);
  });
});

describe("watching", () => {
  it("tells the watchers of a page and of its folder of content changes, coalesced, and stops once they lose access", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const cat = await server.registered("cat");
    const folderId = await createFolder(ann, { name: "Team" });
    const pageId = await createPage(ann, { title: "Notes", markdown: "v1", parentId: folderId });
    await shareWith(ann, "folder", folderId, bob);
    await shareWith(ann, "page", pageId, cat);
    expect((await bob.call("PUT", `/folders/${folderId}/watch`)).status).toBeLessThan(300);
    expect((await cat.call("PUT", `/pages/${pageId}/watch`)).status).toBeLessThan(300);

    await replaceContent(ann, pageId, "v2");
    await replaceContent(ann, pageId, "v3");
    for (const watcher of [bob, cat])
      expect(await kindsOf(watcher, "watched_changed")).toEqual([expect.objectContaining({ pageId, count: 2 })]);
    expect(await kindsOf(ann, "watched_changed")).toEqual([]);

    expect((await ann.delete(`/shares/entity/page/${pageId}/grants/${cat.id}`)).status).toBeLessThan(300);
    await replaceContent(ann, pageId, "v4");
    // The page is out of Cat's sight: its notification is missing from her list, and nothing new came.
    expect((await notificationsOf(cat)).data).toEqual([]);
    expect(await kindsOf(bob, "watched_changed")).toEqual([expect.objectContaining({ pageId, count: 3 })]);
  });

  it("makes an author a watcher by default: a collaborator's change tells them", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const pageId = await createPage(ann, { title: "Mine", markdown: "v1" });
    await shareWith(ann, "page", pageId, bob, "edit");
    await replaceContent(bob, pageId, "v2");
    expect(await kindsOf(ann, "watched_changed")).toEqual([expect.objectContaining({ pageId, actorId: bob.id })]);
  });
});

describe("groups", () => {
  it("tells a member they were added and of what the group is given; a removed member hears nothing further", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const cat = await server.registered("cat");
    const created = await ann.post("/groups", { name: "Crew" });
    expect(created.status).toBe(201);
    const groupId = String(created.body.id);
    for (const member of [bob, cat])
      expect((await ann.post(`/groups/${groupId}/members`, { email: member.email })).status).toBe(200);
    expect(await kindsOf(bob, "group_added")).toEqual([expect.objectContaining({ actorId: ann.id, groupId })]);
    expect((await kindsOf(bob, "shared")).every((n) => n.groupId === undefined)).toBe(true);

    const folderId = await createFolder(ann, { name: "Shared" });
    const granted = await ann.post(`/shares/entity/folder/${folderId}/grants`, { groupId, permission: "view" });
    expect(granted.status, granted.text).toBe(200);
    for (const member of [bob, cat])
      expect(await kindsOf(member, "shared")).toEqual([expect.objectContaining({ folderId })]);

    expect((await ann.delete(`/groups/${groupId}/members/${cat.id}`)).status).toBe(204);
    const pageId = await createPage(ann, { title: "Later" });
    expect((await ann.post(`/shares/entity/page/${pageId}/grants`, { groupId, permission: "view" })).status).toBe(200);
    expect(await kindsOf(bob, "shared")).toHaveLength(2);
    // Cat lost the folder with the group: its notification is gone, and the later share never reached her; she
    // is no longer a member, so being added is gone too.
    expect(await kindsOf(cat, "shared")).toEqual([]);
    expect(await kindsOf(cat, "group_added")).toEqual([]);
    expect(await kindsOf(bob, "group_added")).toHaveLength(1);
  });

  it("hides a group_added notification once its group is deleted", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const created = await ann.post("/groups", { name: "Short-lived" });
    const groupId = String(created.body.id);
    expect((await ann.post(`/groups/${groupId}/members`, { email: bob.email })).status).toBe(200);
    expect(await kindsOf(bob, "group_added")).toEqual([expect.objectContaining({ groupId })]);
    expect((await ann.delete(`/groups/${groupId}`)).status).toBe(204);
    expect(await kindsOf(bob, "group_added")).toEqual([]);
    expect((await notificationsOf(bob)).unreadCount).toBe(0);
  });
});
