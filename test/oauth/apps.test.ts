// The apps a user authorized: listed, revoked by the user (their next request is 401), refresh tokens that rotate,
// and a rotated one presented again revoking the whole grant.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizedApp, tokenRequest } from "../support/oauth-flow.ts";
import { Client, TestServer, type TestUser } from "../support/server.ts";

let server: TestServer;
let ann: TestUser;
beforeAll(async () => {
  server = await TestServer.start();
  ann = await server.registered("ann");
});
afterAll(async () => {
  await server.stop();
});

const mcpList = (token: string) =>
  fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });

describe("authorized apps", () => {
  it("GET /apps lists what the user authorized, by the client's name, with the scopes granted", async () => {
    await authorizedApp(server.url, ann, ["pages:read", "pages:comment"]);
    const list = await ann.get("/apps");
    expect(list.status).toBe(200);
    const data = list.body.data as Array<Record<string, unknown>>;
    expect(data[0]).toMatchObject({
      name: "Test Agent",
      redirectHost: "127.0.0.1:8976",
      scopes: ["pages:read", "pages:comment"],
    });
  });

  it("another user's apps are not listed, and an API token cannot list them", async () => {
    const bob = await server.registered("bob");
    expect((await bob.get("/apps")).body.data).toEqual([]);
    const token = await server.tokenClient(ann, ["pages:read"]);
    expect((await token.get("/apps")).status).toBe(403);
  });

  it("a revoked app's next API and MCP requests are 401", async () => {
    const { client, tokens } = await authorizedApp(server.url, ann, ["pages:read"]);
    const app = new Client(server.url, { bearer: tokens.access_token });
    expect((await app.get("/pages")).status).toBe(200);
    expect((await mcpList(tokens.access_token)).status).toBe(200);
    const appId = ((await ann.get("/apps")).body.data as Array<{ id: string }>)[0]?.id ?? "";
    expect(
      (await new Client(server.url, (await server.registered("eve")).credentials).delete(`/apps/${appId}`)).status,
    ).toBe(404);
    expect((await ann.delete(`/apps/${appId}`)).status).toBe(204);
    expect((await app.get("/pages")).status).toBe(401);
    expect((await mcpList(tokens.access_token)).status).toBe(401);
    expect(((await ann.get("/apps")).body.data as Array<{ id: string }>).map((listed) => listed.id)).not.toContain(
      appId,
    );
    const refreshed = await tokenRequest(server.url, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: client.clientId,
    });
    expect(refreshed.body.error).toBe("invalid_grant");
  });

  it("a refresh token rotates on use; the rotated one presented again revokes the whole grant", async () => {
    const { client, tokens } = await authorizedApp(server.url, ann, ["pages:read"]);
    const first = await tokenRequest(server.url, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: client.clientId,
    });
    expect(first.status).toBe(200);
    const rotated = first.body as { access_token: string; refresh_token: string };
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect((await new Client(server.url, { bearer: rotated.access_token }).get("/pages")).status).toBe(200);
    const replay = await tokenRequest(server.url, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: client.clientId,
    });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe("invalid_grant");
    // The whole grant went: the newest tokens too.
    expect((await new Client(server.url, { bearer: rotated.access_token }).get("/pages")).status).toBe(401);
    expect(
      (
        await tokenRequest(server.url, {
          grant_type: "refresh_token",
          refresh_token: rotated.refresh_token,
          client_id: client.clientId,
        })
      ).body.error,
    ).toBe("invalid_grant");
  });

  it("revoking a refresh token (RFC 7009) revokes the app", async () => {
    const { client, tokens } = await authorizedApp(server.url, ann, ["pages:read"]);
    const revoked = await fetch(`${server.url}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.refresh_token, client_id: client.clientId }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect((await new Client(server.url, { bearer: tokens.access_token }).get("/pages")).status).toBe(401);
  });

  it("what an app writes is recorded as the app's in history", async () => {
    const { tokens } = await authorizedApp(server.url, ann, ["pages:read", "pages:write"]);
    const app = new Client(server.url, { bearer: tokens.access_token });
    const created = await app.post("/pages", { title: "Written by the agent" });
    expect(created.status).toBe(201);
    const history = await ann.get(`/pages/${String(created.body.id)}/history`);
    const entries = history.body.data as Array<{ actor: { id: string; token: { name: string } | null } }>;
    expect(entries[0]?.actor).toMatchObject({ id: ann.id, token: { name: "Test Agent" } });
  });
});
