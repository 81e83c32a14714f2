// /mcp messages are metered as HTTP requests are: a flood of JSON-RPC batches of tools/list from one token
// spends its read budget message by message, tools/list is answered from one shared list, and another user's
// requests keep their latency meanwhile. Loopback only, bounded in time and count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer } from "../support/server.ts";
import { connectAgent } from "./mcp-client.ts";

let server: TestServer;
// The server's clock starts 10 s into a minute, so the flood's one-minute window never ends under it.
const offset = (Date.now() % 60_000) - 10_000;
beforeAll(async () => {
  server = await TestServer.start({
    clock: () => new Date(Date.now() - offset),
    settings: { RATE_LIMIT_READ: "160/1m" },
  });
});
afterAll(async () => {
  await server.stop();
});

const FLOOD_MS = 5_000;
const ATTACKERS = 8;
/** Half the flooders send batches of 16 (as many as a request may carry), half batches of 100 (as in the report). */
const BATCHES = [16, 100] as const;

describe("a flood of MCP batches", () => {
  it("spends the flooder's budget per message and leaves another user's GET /pages fast", async () => {
    const attacker = await server.registered("flooder");
    const created = await attacker.post("/tokens", {
      name: "flood",
      scopes: ["pages:read", "pages:comment", "pages:write"],
    });
    const secret = String(created.body.token);
    const agent = await connectAgent(server.url, secret);
    const sessionId = agent.transport.sessionId ?? "";
    const headers = {
      authorization: `Bearer ${secret}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-11-25",
    };
    const batch = (size: number) =>
      JSON.stringify(
        Array.from({ length: size }, (_, index) => ({ jsonrpc: "2.0", id: index + 1, method: "tools/list" })),
      );
    const victim = await server.registered("neighbour");
    const quiet = await victim.get("/pages");
    expect(quiet.status).toBe(200);

    const statuses = new Map<number, number>();
    const until = Date.now() + FLOOD_MS;
    const flood = Array.from({ length: ATTACKERS }, async (_, attacker) => {
      const body = batch(BATCHES[attacker % BATCHES.length] ?? 16);
      while (Date.now() < until) {
        const response = await fetch(`${server.url}/mcp`, { method: "POST", headers, body });
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    });
    const latencies: number[] = [];
    const probe = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      while (Date.now() < until) {
        const started = performance.now();
        const answer = await victim.get("/pages");
        latencies.push(performance.now() - started);
        expect(answer.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await Promise.all([...flood, probe]);

    // The neighbour's slowest request stays under 1.5 s (generous, for a loaded CI machine; seconds before).
    expect(Math.max(...latencies)).toBeLessThan(1_500);
    // The flooder got its budget's worth (160 messages: 10 batches of 16) and then 429s; larger batches, 413s.
    expect(statuses.get(429) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(413) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(200) ?? 0).toBeLessThanOrEqual(160 / 16);
    await agent.close();
  });

  it("refuses a batch of more messages than a request may carry, before handling any", async () => {
    const user = await server.registered("batcher");
    const created = await user.post("/tokens", { name: "batch", scopes: ["pages:read"] });
    const secret = String(created.body.token);
    const agent = await connectAgent(server.url, secret);
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${secret}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": agent.transport.sessionId ?? "",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify(
        Array.from({ length: 100 }, (_, index) => ({ jsonrpc: "2.0", id: index + 1, method: "tools/list" })),
      ),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "payload_too_large" } });
    await agent.close();
  });
});
