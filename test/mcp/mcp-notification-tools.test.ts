// The notification tools answer what GET /notifications answers and mark as POST /notifications/read marks; the
// tools that write markdown name the mentions that reach nobody, as the HTTP writes do.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../support/server.ts";
import { createPage, share } from "../support/workspace-builders.ts";
import { connectAgent, type Agent } from "./mcp-client.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

async function agentOf(user: TestUser, scopes: string[]): Promise<Agent> {
  const token = await user.post("/tokens", { name: "agent", scopes });
  expect(token.status).toBe(201);
  return connectAgent(server.url, String(token.body.token));
}

const mention = (user: TestUser) => `[@${user.name}](mention:${user.id})`;

describe("the notification tools", () => {
  it("list_notifications lists what GET /notifications lists; mark_notifications_read marks by id and all", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const first = await createPage(ann, { title: "First" });
    const second = await createPage(ann, { title: "Second" });
    for (const pageId of [first, second])
      expect((await share(ann, "page", pageId, bob.email, "view")).status).toBe(200);

    const agent = await agentOf(bob, ["pages:read"]);
    const listed = await agent.call("list_notifications", {});
    const http = (await bob.get("/notifications")).body;
    expect(listed.notifications).toEqual(http.data);
    expect(listed).toMatchObject({ unreadCount: 2, nextCursor: null });

    const paged = await agent.call("list_notifications", { limit: 1 });
    expect(paged.notifications).toHaveLength(1);
    expect(typeof paged.nextCursor).toBe("string");

    const [newest] = listed.notifications as { id: string }[];
    expect(await agent.call("mark_notifications_read", { ids: [newest?.id] })).toMatchObject({ status: "done" });
    expect(await agent.call("list_notifications", { unreadOnly: true })).toMatchObject({ unreadCount: 1 });
    await agent.call("mark_notifications_read", { all: true });
    expect((await bob.get("/notifications")).body).toMatchObject({ unreadCount: 0 });

    // Another's notification is not found, as on the HTTP route.
    const annAgent = await agentOf(ann, ["pages:read"]);
    expect(await annAgent.refused("mark_notifications_read", { ids: [newest?.id] })).toMatchObject({
      code: "not_found",
    });
    expect(await agent.refused("mark_notifications_read", {})).toMatchObject({ code: "validation_failed" });
    await Promise.all([agent.close(), annAgent.close()]);
  });

  it("hides a notification about a page the caller can no longer view", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const pageId = await createPage(ann, { title: "Briefly shared" });
    expect((await share(ann, "page", pageId, bob.email, "view")).status).toBe(200);
    const agent = await agentOf(bob, ["pages:read"]);
    expect((await agent.call("list_notifications", {})).notifications).toHaveLength(1);
    expect((await ann.delete(`/shares/entity/page/${pageId}/grants/${bob.id}`)).status).toBeLessThan(300);
    expect(await agent.call("list_notifications", {})).toMatchObject({ notifications: [], unreadCount: 0 });
    await agent.close();
  });
});

describe("unreachable mentions through MCP", () => {
  it("create_page, replace_page_content, append_to_page and comment_on_page name the mentions that reach nobody", async () => {
    const ann = await server.registered("ann");
    const outsider = await server.registered("outsider");
    const agent = await agentOf(ann, ["pages:read", "pages:comment", "pages:write"]);
    const created = await agent.call("create_page", { title: "Plan", markdown: `Hi ${mention(outsider)}` });
    expect(created.unreachableMentions).toEqual([outsider.id]);
    const pageId = String(created.id);
    const replaced = await agent.call("replace_page_content", {
      pageId,
      etag: created.etag,
      markdown: `Some text before the quoted words and after, ${mention(ann)}`,
    });
    expect(replaced.unreachableMentions).toEqual([]);
    const appended = await agent.call("append_to_page", { pageId, text: `\n${mention(outsider)}` });
    expect(appended.unreachableMentions).toEqual([outsider.id]);
    const commented = await agent.call("comment_on_page", {
      pageId,
      body: `${mention(outsider)}?`,
      anchor: { quote: "the quoted words", prefix: "text before ", suffix: " and after" },
    });
    expect(commented.unreachableMentions).toEqual([outsider.id]);
    expect((await outsider.get("/notifications")).body).toMatchObject({ data: [] });
    await agent.close();
  });
});
