// Both protocol generations on the one /mcp: a 2026-07-28 client (the SDK v2's Client, stateless, every request
// carrying its revision) and a 2025-11-25 client (the SDK 1.x Client, as the MCP Inspector connects, on a
// session) against the same server; subscriptions/listen fed by the change feed; the scope a 401 or 403 needs.
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../support/server.ts";
import { createPage } from "../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

async function tokenOf(user: TestUser, scopes: string[]): Promise<string> {
  const created = await user.post("/tokens", { name: `agent ${scopes.join(" ")}`, scopes });
  expect(created.status).toBe(201);
  return String(created.body.token);
}

async function modernClient(token: string): Promise<ModernClient> {
  const client = new ModernClient(
    { name: "modern-agent", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(
    new ModernTransport(new URL("/mcp", server.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

async function legacyClient(token: string): Promise<{ client: LegacyClient; transport: LegacyTransport }> {
  const transport = new LegacyTransport(new URL("/mcp", server.url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new LegacyClient({ name: "legacy-agent", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

const post = (token: string | null, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });

describe("the MCP server's two protocol generations", () => {
  it("serves a 2026-07-28 client statelessly and a 2025-11-25 client on its session, both calling the same tools", async () => {
    const owner = await server.registered("owner");
    const pageId = await createPage(owner, { title: "Both eras", markdown: "shared text" });
    const token = await tokenOf(owner, ["pages:read", "pages:write"]);

    const modern = await modernClient(token);
    expect(modern.getNegotiatedProtocolVersion?.() ?? "2026-07-28").toBe("2026-07-28");
    const modernRead = await modern.callTool({ name: "read_page", arguments: { pageId } });
    expect(modernRead.isError).not.toBe(true);
    expect(JSON.stringify(modernRead.structuredContent)).toContain("shared text");
    await modern.callTool({ name: "append_to_page", arguments: { pageId, text: "from 2026" } });

    const legacy = await legacyClient(token);
    expect(legacy.transport.protocolVersion).toBe("2025-11-25");
    expect(legacy.transport.sessionId).toMatch(/.+/);
    const legacyRead = await legacy.client.callTool({ name: "read_page", arguments: { pageId } });
    expect(JSON.stringify(legacyRead.structuredContent)).toContain("from 2026");
    expect((await legacy.client.listTools()).tools.map((tool) => tool.name)).toEqual(
      (await modern.listTools()).tools.map((tool) => tool.name),
    );
    await modern.close();
    await legacy.client.close();
  });

  it("answers 2026-07-28 requests with no session: server/discover, then any request on its own, with cache hints on list results", async () => {
    const owner = await server.registered("owner");
    const token = await tokenOf(owner, ["pages:read"]);
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    };
    const routing = { "mcp-protocol-version": "2026-07-28" };
    const discover = await post(
      token,
      { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } },
      { ...routing, "mcp-method": "server/discover" },
    );
    expect(discover.status).toBe(200);
    expect(discover.headers.get("mcp-session-id")).toBeNull();
    const discovered = (await discover.json()) as { result: { supportedVersions: string[] } };
    expect(discovered.result.supportedVersions).toContain("2026-07-28");
    const list = await post(
      token,
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta } },
      { ...routing, "mcp-method": "tools/list" },
    );
    expect(list.status).toBe(200);
    const listed = (await list.json()) as {
      result: { tools: Array<{ name: string }>; ttlMs: number; cacheScope: string };
    };
    expect(listed.result.tools.map((tool) => tool.name)).toContain("read_page");
    expect(listed.result).toMatchObject({ ttlMs: 3_600_000, cacheScope: "private" });
  });

  it("notifies a page change on subscriptions/listen, from the change feed", async () => {
    const owner = await server.registered("owner");
    const pageId = await createPage(owner, { title: "Listened", markdown: "v1" });
    const modern = await modernClient(await tokenOf(owner, ["pages:read"]));
    const uri = `workspace://pages/${pageId}`;
    const updated = new Promise<string>((resolve) => {
      modern.setNotificationHandler("notifications/resources/updated", (notification) =>
        resolve(notification.params.uri),
      );
    });
    const subscription = await modern.listen({ resourceSubscriptions: [uri] });
    await expect
      .poll(async () => (await owner.patch(`/pages/${pageId}`, { title: `Listened ${Date.now()}` })).status, {
        timeout: 5_000,
      })
      .toBe(200);
    expect(await updated).toBe(uri);
    await subscription.close();
    await modern.close();
  });

  it("names the scope a request needs: a 401 for a write tool names pages:write, a token without it is answered 403 insufficient_scope", async () => {
    const unauthenticated = await post(null, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "create_page", arguments: { title: "x" } },
    });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get("www-authenticate")).toMatch(/resource_metadata="[^"]+", scope="pages:write"/);

    const owner = await server.registered("owner");
    const modern = await modernClient(await tokenOf(owner, ["pages:read"]));
    await expect(modern.callTool({ name: "create_page", arguments: { title: "Sneaky" } })).rejects.toThrow();
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    };
    const refused = await post(
      await tokenOf(owner, ["pages:read"]),
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "create_page", arguments: { title: "Sneaky" }, _meta: meta },
      },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "create_page" },
    );
    expect(refused.status).toBe(403);
    const challenge = refused.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="pages:write"');
    expect(challenge).toContain("resource_metadata=");
    expect((await owner.get("/pages/resolve?title=Sneaky")).body.data).toEqual([]);
    await modern.close();
  });
});
