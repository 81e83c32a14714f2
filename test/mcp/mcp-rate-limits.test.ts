// Tool calls spend the caller's budgets as the HTTP requests they stand for, and every other protocol message
// one unit of the read budget: the same counters, per token.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, TestServer } from "../support/server.ts";
import { connectAgent } from "./mcp-client.ts";

let server: TestServer;
beforeAll(async () => {
  // The whole window is one hour, so no test crosses a window's end.
  server = await TestServer.start({
    settings: { RATE_LIMIT_READ: "12/1h", RATE_LIMIT_SEARCH: "2/1h", RATE_LIMIT_WRITE: "100/1h" },
  });
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
    // The session's own messages (initialize, its notification, tools/list) spend the read budget too.
    await agent.client.listTools();
    const http = new Client(server.url, { bearer: secret });
    const first = await http.get("/pages");
    expect(first.status).toBe(200);
    const left = Number(/r=(\d+)/.exec(first.headers.get("ratelimit") ?? "")?.[1]);
    expect(left).toBeLessThanOrEqual(12 - 3 - 1);
    // What is left goes to tool calls and HTTP requests alike, one unit each.
    for (let index = 0; index < left - 1; index += 1)
      await agent.call(index % 2 === 0 ? "list_pages" : "list_folders", {});
    await agent.call("resolve_page", { title: "anything" });
    const refused = await agent.refused("list_pages", {});
    expect(refused).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/too many read requests/) });
    expect((await http.get("/pages")).status).toBe(429);
    // A plain protocol message past the budget is refused as an HTTP request would be.
    await expect(agent.client.listTools()).rejects.toThrow(/429|rate_limited/);
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

  it("count a share link's creation and revocation in the write budget, as their routes are", async () => {
    const owner = await server.registered("sharer");
    const created = await owner.post("/tokens", { name: "sharing agent", scopes: ["pages:read", "pages:write"] });
    const secret = String(created.body.token);
    const http = new Client(server.url, { bearer: secret });
    const remaining = (reply: { headers: Headers }) =>
      Number(/r=(\d+)/.exec(reply.headers.get("ratelimit") ?? "")?.[1]);
    const page = await http.post("/pages", { title: "Shared" });
    expect(page.status).toBe(201);
    const agent = await connectAgent(server.url, secret);
    const link = await agent.call("create_share_link", { entityId: page.body.id });
    await agent.call("revoke_share_link", { linkId: link.id });
    const next = await http.post("/pages", { title: "Next" });
    expect(remaining(next)).toBe(remaining(page) - 3);
    await agent.close();
  });
});
