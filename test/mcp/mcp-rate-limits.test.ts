// Tool calls spend the caller's budgets as the HTTP requests they stand for: the same counters, per token.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, TestServer } from "../support/server.ts";
import { connectAgent } from "./mcp-client.ts";

let server: TestServer;
beforeAll(async () => {
  // The whole window is one hour, so no test crosses a window's end.
  server = await TestServer.start({ settings: { RATE_LIMIT_READ: "4/1h", RATE_LIMIT_SEARCH: "2/1h", RATE_LIMIT_WRITE: "100/1h" } });
});
afterAll(async () => {
  await server.stop();
});

describe("rate limits through the MCP server", () => {
  it("count a token's tool calls and its HTTP requests in one budget, and refuse past it with rate_limited", async () => {
    const owner = await server.registered("owner");
    const created = await owner.post("/tokens", { name: "busy agent", scopes: ["pages:read"] });
    const secret = String(created.body.token);
    const agent = await connectAgent(server.url, secret);
    // The session's own messages (initialize, tools/list) spend nothing.
    await agent.client.listTools();
    await agent.call("list_pages", {});
    await agent.call("list_folders", {});
    const http = new Client(server.url, { bearer: secret });
    expect((await http.get("/pages")).status).toBe(200);
    await agent.call("resolve_page", { title: "anything" });
    const refused = await agent.refused("list_pages", {});
    expect(refused).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/too many read requests/) });
    expect((await http.get("/pages")).status).toBe(429);
    // Search has its own budget.
    await agent.call("search", { query: "x" });
    await agent.call("search", { query: "y" });
    expect((await agent.refused("search", { query: "z" })).code).toBe("rate_limited");
    // Another token of the same user has a budget of its own.
    const other = await owner.post("/tokens", { name: "other agent", scopes: ["pages:read"] });
    const second = await connectAgent(server.url, String(other.body.token));
    expect((await second.call("list_pages", {})).pages).toEqual([]);
    await Promise.all([agent.close(), second.close()]);
  });
});
