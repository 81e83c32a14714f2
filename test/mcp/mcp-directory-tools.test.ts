// The tools around a page and its people, called by a 2026-07-28 client: backlinks, attachments with their
// download links, the people sharing a workspace with the caller; and an outsider finds none of it.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attach } from "../support/attachments.ts";
import { TestServer, type TestUser } from "../support/server.ts";
import { addMember, createPage } from "../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

async function agentOf(user: TestUser) {
  const created = await user.post("/tokens", { name: "agent", scopes: ["pages:read"] });
  const client = new Client(
    { name: "agent", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", server.url), {
      requestInit: { headers: { authorization: `Bearer ${String(created.body.token)}` } },
    }),
  );
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    const content: Record<string, unknown> = Object.fromEntries(Object.entries(result.structuredContent ?? {}));
    return { isError: result.isError === true, content };
  };
  return { client, call };
}

describe("the page and people tools", () => {
  it("answer a page's backlinks and attachments with absolute download links, and the people sharing a workspace", async () => {
    const owner = await server.registered("owner");
    const member = await server.registered("member");
    await server.registered("stranger");
    const target = await createPage(owner, { title: "Target", markdown: "the target" });
    await createPage(owner, { title: "Linker", markdown: `see [the target](/api/v1/pages/${target})` });
    expect(
      (await attach(owner, target, { bytes: new TextEncoder().encode("hello"), name: "notes.txt", type: "text/plain" }))
        .status,
    ).toBe(201);
    const memberMe = await member.get("/me");
    expect((await addMember(owner, String(memberMe.body.email), "viewer")).status).toBeLessThan(300);
    const agent = await agentOf(owner);

    await expect
      .poll(
        async () =>
          (
            (await agent.call("page_backlinks", { pageId: target })).content.pages as
              Array<{ title: string }> | undefined
          )?.map((page) => page.title),
        { timeout: 5_000 },
      )
      .toEqual(["Linker"]);
    const attachments = (await agent.call("list_attachments", { pageId: target })).content.attachments as Array<{
      url: string;
      name: string;
    }>;
    expect(attachments).toHaveLength(1);
    expect(attachments[0]?.url).toMatch(/^(https?:\/\/[^/]+)?\/api\/v1\/attachments\/[0-9a-f-]{36}/);
    const people = (await agent.call("list_people", {})).content.people as Array<{ id: string }>;
    expect(people.map((person) => person.id)).toEqual([String(memberMe.body.id)]);
    await agent.client.close();
  });

  it("answer an outsider not_found for another user's page, as for a random id, and find no one for them", async () => {
    const owner = await server.registered("owner");
    const page = await createPage(owner, { title: "Private" });
    const outsider = await agentOf(await server.registered("outsider"));
    for (const tool of ["page_backlinks", "list_attachments"]) {
      const theirs = await outsider.call(tool, { pageId: page });
      const unknown = await outsider.call(tool, { pageId: crypto.randomUUID() });
      expect(theirs.isError, tool).toBe(true);
      expect(theirs.content, tool).toEqual(unknown.content);
      expect(theirs.content, tool).toMatchObject({ error: { code: "not_found" } });
    }
    expect((await outsider.call("list_people", {})).content).toEqual({ people: [] });
    await outsider.client.close();
  });
});
