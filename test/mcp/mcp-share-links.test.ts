// The share-link tools through the official MCP client: a link made by an agent works for anyone holding its url,
// shown once; the agent lists and revokes it; an outsider learns nothing about another user's page or link.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicRequest } from "../support/share-links.ts";
import { TestServer, type TestUser } from "../support/server.ts";
import { createPage } from "../support/workspace-builders.ts";
import { connectAgent, type Agent } from "./mcp-client.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

async function agentOf(user: TestUser, scopes = ["pages:read", "pages:write"]): Promise<Agent> {
  const created = await user.post("/tokens", { name: "share agent", scopes });
  expect(created.status).toBe(201);
  return connectAgent(server.url, String(created.body.token));
}

interface ListedLink {
  readonly id: string;
  readonly url: string | null;
  readonly revokedAt: string | null;
}

const linksIn = (listed: Record<string, unknown>) => listed.links as ListedLink[];

describe("the share-link tools", () => {
  it("create a link whose url is answered once and opens the page, list it without the url, and revoke it", async () => {
    const owner = await server.registered("owner");
    const pageId = await createPage(owner, { title: "Handbook", markdown: "Welcome aboard" });
    const agent = await agentOf(owner);

    const created = await agent.call("create_share_link", { entityId: pageId, password: null });
    expect(created.status).toBe("done");
    const link = created.link as ListedLink & Record<string, unknown>;
    expect(link).toMatchObject({
      id: created.id,
      entityType: "page",
      entityId: pageId,
      passwordProtected: false,
      createdBy: owner.id,
      revokedAt: null,
    });
    const path = new URL(String(link.url), server.url).pathname;
    expect(path).toMatch(/^\/s\/sl_[A-Za-z0-9_-]{43}$/);
    const opened = await publicRequest(server.url, path);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain("Welcome aboard");

    const mine = linksIn(await agent.call("list_share_links", {}));
    expect(mine.map((listed) => [listed.id, listed.url])).toEqual([[link.id, null]]);
    const ofPage = linksIn(await agent.call("list_share_links", { entityType: "page", entityId: pageId }));
    expect(ofPage.map((listed) => listed.id)).toEqual([link.id]);
    expect(JSON.stringify(await owner.get("/share-links"))).not.toContain(path);

    const revoked = await agent.call("revoke_share_link", { linkId: link.id });
    expect(revoked).toMatchObject({ status: "done", id: link.id });
    expect((await publicRequest(server.url, path)).status).toBe(404);
    const [after] = linksIn(await agent.call("list_share_links", {}));
    expect(after?.revokedAt).not.toBeNull();
    await agent.close();
  });

  it("answer an outsider the same not_found for another user's page or link as for ones that do not exist", async () => {
    const owner = await server.registered("owner");
    const pageId = await createPage(owner, { title: "Private" });
    const ownersAgent = await agentOf(owner);
    const { id: linkId } = await ownersAgent.call("create_share_link", { entityId: pageId });
    await ownersAgent.close();
    const outsider = await agentOf(await server.registered("outsider"));

    const theirPage = await outsider.refused("create_share_link", { entityId: pageId });
    const noPage = await outsider.refused("create_share_link", { entityId: crypto.randomUUID() });
    expect(theirPage.code).toBe("not_found");
    expect(theirPage).toEqual(noPage);
    const theirList = await outsider.refused("list_share_links", { entityType: "page", entityId: pageId });
    expect(theirList).toEqual(
      await outsider.refused("list_share_links", { entityType: "page", entityId: crypto.randomUUID() }),
    );
    const theirLink = await outsider.refused("revoke_share_link", { linkId });
    expect(theirLink.code).toBe("not_found");
    expect(theirLink).toEqual(await outsider.refused("revoke_share_link", { linkId: crypto.randomUUID() }));
    expect(linksIn(await outsider.call("list_share_links", {}))).toEqual([]);
    await outsider.close();

    const listed = await owner.get(`/share-links/${String(linkId)}`);
    expect(listed.body.revokedAt).toBeNull();
  });

  it("are listed by scope: a reading token lists links but cannot create or revoke them", async () => {
    const reader = await agentOf(await server.registered("reader"), ["pages:read"]);
    const names = (await reader.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("list_share_links");
    expect(names).not.toContain("create_share_link");
    expect(names).not.toContain("revoke_share_link");
    await reader.close();
  });
});
