// What only one caller, or only the operator, may see stays theirs: authenticated answers are never kept by a
// shared cache, /mcp answers only this service's names (DNS rebinding), and /metrics only its monitoring.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer } from "../../support/server.ts";

const METRICS_TOKEN = "metrics-token-that-is-long-enough-0123456789";
let server: TestServer;
let guarded: TestServer;
beforeAll(async () => {
  // Behind a proxy on loopback, a client's address is what X-Forwarded-For says: a stranger's, not loopback.
  server = await TestServer.start({ settings: { TRUST_PROXY: "loopback", ALLOWED_HOSTS: "workspace.example.com" } });
  guarded = await TestServer.start({ settings: { METRICS_TOKEN } });
});
afterAll(async () => {
  await Promise.all([server.stop(), guarded.stop()]);
});

describe("authenticated answers", () => {
  it("carry Cache-Control: private, no-store on /pages, /me and /search", async () => {
    const user = await server.registered("cached");
    for (const path of ["/pages", "/me", "/search?q=x"]) {
      const answer = await user.get(path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("cache-control"), path).toBe("private, no-store");
    }
  });
});

/** fetch sends its own Host whatever it is given: node's client sends the one a forged request would. */
function withHost(
  url: string,
  host: string,
  method = "GET",
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      { method, headers: { host, "content-type": "application/json", accept: "application/json, text/event-stream" } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}

describe("/mcp and its metadata", () => {
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
  });
  const post = (headers: Record<string, string>) =>
    fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: initialize,
    });

  it("refuse a page of another origin (DNS rebinding), before anything else, with origin_not_allowed", async () => {
    const user = await server.registered("rebound");
    const token = String((await user.post("/tokens", { name: "t", scopes: ["pages:read"] })).body.token);
    const refused = await post({ authorization: `Bearer ${token}`, origin: "http://evil.example" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: "origin_not_allowed" } });
    const own = await post({ authorization: `Bearer ${token}`, origin: new URL(server.url).origin });
    expect(own.status).toBe(200);
  });

  it("refuse a Host the service does not answer to, and never name it in WWW-Authenticate or the metadata", async () => {
    const forged = await withHost(`${server.url}/mcp`, "evil.example", "POST", initialize);
    expect(forged.status).toBe(403);
    expect(forged.headers["www-authenticate"]).toBeUndefined();
    expect(JSON.parse(forged.text)).toMatchObject({ error: { code: "host_not_allowed" } });
    const metadata = await withHost(`${server.url}/.well-known/oauth-protected-resource`, "evil.example");
    expect(metadata.status).toBe(403);
    expect(metadata.text).not.toContain("evil.example");
  });

  it("answer a configured host, and never let a shared cache keep the metadata", async () => {
    const challenged = await withHost(`${server.url}/mcp`, "workspace.example.com", "POST", initialize);
    expect(challenged.status).toBe(401);
    expect(challenged.headers["www-authenticate"]).toContain(
      "http://workspace.example.com/.well-known/oauth-protected-resource",
    );
    const metadata = await fetch(`${server.url}/.well-known/oauth-protected-resource`);
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get("cache-control")).not.toMatch(/public/);
  });
});

describe("/metrics", () => {
  it("refuses a client from elsewhere when no METRICS_TOKEN is set, and answers loopback", async () => {
    const stranger = await fetch(`${server.url}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(stranger.status).toBe(403);
    expect(await stranger.text()).not.toContain("# TYPE");
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
  });

  it("answers only the METRICS_TOKEN when one is set", async () => {
    const without = await fetch(`${guarded.url}/metrics`);
    expect(without.status).toBe(401);
    expect(await without.json()).toMatchObject({ error: { code: "unauthenticated" } });
    const wrong = await fetch(`${guarded.url}/metrics`, { headers: { authorization: "Bearer not-the-token" } });
    expect(wrong.status).toBe(401);
    const scraped = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain("# TYPE");
  });
});
