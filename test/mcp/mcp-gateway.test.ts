// The MCP server through the split deployment's nginx gateway: the official client initializes, lists the tools
// of its token's scopes, calls every kind of tool (reads answered from the read models the projector keeps,
// writes appended by the command API), reads a resource, and is told where the metadata is without a token.
import { authorizedApp } from "../support/oauth-flow.ts";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSession } from "../../shared/auth/session-verifier.ts";
import { gatewayUnavailable, type Gateway } from "../support/gateway.ts";
import { Client, TEST_SESSION_SECRET } from "../support/server.ts";
import { startSplitBehindGateway, type SplitServices } from "../support/split-services.ts";
import { connectAgent } from "./mcp-client.ts";

const unavailable = gatewayUnavailable();
if (unavailable) console.warn(`MCP gateway tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("the MCP server through the gateway", () => {
  let split: SplitServices;
  let gateway: Gateway;
  beforeAll(async () => {
    ({ split, gateway } = await startSplitBehindGateway({ queryNodes: 1 }));
  }, 120_000);
  afterAll(async () => {
    await gateway?.stop();
    await split?.stop();
  });

  it("answers 401 with the gateway's own address of the metadata, which the gateway serves", async () => {
    const reply = await fetch(`${gateway.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(reply.status).toBe(401);
    const url = /resource_metadata="([^"]+)"/.exec(reply.headers.get("www-authenticate") ?? "")?.[1] ?? "";
    expect(url).toBe(`${gateway.url}/.well-known/oauth-protected-resource`);
    const metadata = (await (await fetch(url)).json()) as Record<string, unknown>;
    expect(metadata.resource).toBe(`${gateway.url}/mcp`);
  });

  it("authorizes an agent through OAuth behind the gateway: metadata, consent, tokens the query nodes accept, revocation", async () => {
    const metadata = (await (await fetch(`${gateway.url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata.issuer).toBe(gateway.url);
    expect(metadata.token_endpoint).toBe(`${gateway.url}/oauth/token`);
    const id = crypto.randomUUID();
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: id,
      email: `oauth-gate-${id}@example.com`,
      name: "Gate OAuth",
    });
    const person = Object.assign(new Client(gateway.url, { cookie }), {
      id,
      email: `oauth-gate-${id}@example.com`,
      name: "Gate OAuth",
    });
    expect((await person.get("/me")).status).toBe(200);
    const { tokens } = await authorizedApp(gateway.url, person, ["pages:read"]);
    const app = new Client(gateway.url, { bearer: tokens.access_token });
    expect((await app.get("/pages")).status).toBe(200);
    const appId = ((await person.get("/apps")).body.data as Array<{ id: string }>)[0]?.id ?? "";
    expect((await person.delete(`/apps/${appId}`)).status).toBe(204);
    expect((await app.get("/pages")).status).toBe(401);
  });

  it("serves a session with the official client: tools per scope, every kind of call, a resource, notifications on its stream", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "mcp-gate@example.com",
      name: "Gate",
    });
    const user = new Client(gateway.url, { cookie });
    expect((await user.get("/me")).status).toBe(200);
    const created = await user.post("/tokens", {
      name: "gateway agent",
      scopes: ["pages:read", "pages:comment", "pages:write"],
    });
    expect(created.status).toBe(201);
    const readOnly = await user.post("/tokens", { name: "gateway reader", scopes: ["pages:read"] });

    const reader = await connectAgent(gateway.url, String(readOnly.body.token));
    const readerTools = (await reader.client.listTools()).tools;
    const changing = readerTools.filter((tool) => tool.annotations?.readOnlyHint !== true).map((tool) => tool.name);
    expect(changing).toEqual(["mark_notifications_read"]);
    await reader.close();

    const agent = await connectAgent(gateway.url, String(created.body.token));
    expect(agent.transport.protocolVersion).toBe("2025-11-25");
    expect((await agent.client.listTools()).tools).toHaveLength(29);
    const page = await agent.call("create_page", { title: "Gateway page", markdown: "one\n" });
    const pageId = String(page.id);
    const read = await agent.call("read_page", { pageId });
    await agent.call("edit_page", { pageId, etag: read.etag, edits: [{ oldText: "one", newText: "two" }] });
    await agent.call("comment_on_page", { pageId, body: "Why two?", anchor: { quote: "two" } });
    const history = await agent.call("page_history", { pageId, order: "asc" });
    const [first] = history.changes as Array<{ position: string }>;
    expect((await agent.call("diff_page", { pageId, from: first?.position })).unified).toContain("-one\n+two");
    expect((await agent.call("search", { query: "gateway" })).results).toMatchObject([{ id: pageId }]);
    const resource = await agent.client.readResource({ uri: `workspace://pages/${pageId}` });
    expect(JSON.stringify(resource.contents)).toContain("two");
    const listed = await agent.client.listResources();
    expect(listed.resources.map((item) => item.uri)).toContain(`workspace://pages/${pageId}`);
    // The server's stream is a GET of /mcp: the gateway sends it to the command API and passes it through unbuffered.
    const updated = new Promise<string>((resolve) =>
      agent.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => resolve(note.params.uri)),
    );
    await agent.client.subscribeResource({ uri: `workspace://pages/${pageId}` });
    expect((await user.patch(`/pages/${pageId}`, { title: "Renamed through HTTP" })).status).toBe(200);
    expect(await updated).toBe(`workspace://pages/${pageId}`);
    // What the agent wrote, the HTTP API reads through the query node.
    const content = await user.get(`/pages/${pageId}/content`);
    expect(content.text).toContain("two");
    const entries = (await user.get(`/pages/${pageId}/history?order=asc`)).body.data as Array<{
      actor: { token?: { name: string } };
    }>;
    expect(entries[1]?.actor.token?.name).toBe("gateway agent");
    const diff = await user.get(`/pages/${pageId}/diff?from=${first?.position}`);
    expect(diff.status).toBe(200);
    expect(diff.text).toContain("+two");
    await agent.close();
  });
});
