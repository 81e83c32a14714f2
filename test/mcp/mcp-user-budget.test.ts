// One user's budget is one total whatever the way in: tool calls over MCP spend the same per-user total as HTTP
// requests, so more tokens buy no more.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, TestServer, type TestUser } from "../support/server.ts";
import { connectAgent, type Agent } from "./mcp-client.ts";

let server: TestServer;
// The server's clock starts 10 s into a minute, so the test's one-minute windows never end under it.
const offset = (Date.now() % 60_000) - 10_000;
beforeAll(async () => {
  server = await TestServer.start({
    clock: () => new Date(Date.now() - offset),
    settings: { RATE_LIMIT_SEARCH: "5/1m", RATE_LIMIT_USER_FACTOR: "2" },
  });
});
afterAll(async () => {
  await server.stop();
});

async function tokens(user: TestUser, count: number): Promise<string[]> {
  const secrets: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const created = await user.post("/tokens", { name: `agent ${index}`, scopes: ["pages:read"] });
    secrets.push(String(created.body.token));
  }
  return secrets;
}

describe("a user's budget over HTTP and MCP", () => {
  it("is one total: five tokens' searches over MCP stop where HTTP stops, at the user's twice one token's quota", async () => {
    const owner = await server.registered("many-tokens");
    const secrets = await tokens(owner, 5);
    // Three searches over HTTP first, from the first token.
    const http = new Client(server.url, { bearer: secrets[0] ?? "" });
    for (let index = 0; index < 3; index += 1) expect((await http.get("/search?q=x")).status).toBe(200);
    const agents: Agent[] = await Promise.all(secrets.map((secret) => connectAgent(server.url, secret)));
    let passed = 0;
    const refusals: string[] = [];
    // Round after round across the tokens, so no token reaches its own quota before the user's total binds.
    for (let index = 0; index < 5; index += 1) {
      for (const agent of agents) {
        const result = await agent.client.callTool({ name: "search", arguments: { query: `q${index}` } });
        if (result.isError) refusals.push(JSON.stringify(result.content));
        else passed += 1;
      }
    }
    // The user's total is 5 × 2 = 10: three went over HTTP, seven are left for every token together.
    expect(passed).toBe(7);
    expect(refusals.every((text) => text.includes("rate_limited"))).toBe(true);
    // And HTTP sees the total MCP spent: a token that never searched is refused too.
    const fresh = new Client(server.url, { bearer: secrets[4] ?? "" });
    const refused = await fresh.get("/search?q=y");
    expect(refused.status).toBe(429);
    expect(refused.body.error?.message).toMatch(/across all your tokens/);
    await Promise.all(agents.map((agent) => agent.close()));
  });
});
