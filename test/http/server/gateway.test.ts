// The split deployment behind the project's nginx gateway: reads reach the query nodes, writes the command API,
// a created resource's Location stays a path, a client's keep-alive connection lasts, a dead query node does not
// stop reads, and the command API's internal routes and every service's metrics stay inside.
import { Agent, get as httpGet } from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSession } from "../../../shared/auth/session-verifier.ts";
import { attach, authHeaders } from "../../support/attachments.ts";
import { gatewayUnavailable, startGateway, type Gateway } from "../../support/gateway.ts";
import { Client, TEST_SESSION_SECRET } from "../../support/server.ts";
import { startSplitBehindGateway, type SplitServices } from "../../support/split-services.ts";

const unavailable = gatewayUnavailable();
if (unavailable) console.warn(`gateway tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("the nginx gateway in front of the split services", () => {
  let split: SplitServices;
  let gateway: Gateway;
  beforeAll(async () => {
    ({ split, gateway } = await startSplitBehindGateway({ queryNodes: 2 }));
  }, 120_000);
  afterAll(async () => {
    await gateway.stop();
    await split.stop();
  });

  it("sends writes to the command API and reads to the query nodes, with read-your-writes on every step", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "gate@example.com",
      name: "Gate",
    });
    const user = new Client(gateway.url, { cookie });
    expect((await user.get("/me")).status).toBe(200);
    const folder = await user.post("/folders", { name: "Through the gateway" });
    expect(folder.status).toBe(201);
    // The new folder's Location passes through as the service sent it: a path, resolved against the gateway,
    // never rewritten to name a service behind it.
    const location = folder.headers.get("location");
    expect(location).toBe(`/api/v1/folders/${String(folder.body.id)}`);
    const located = await user.get(location ?? "/", {
      "x-consistency-token": folder.headers.get("x-consistency-token") ?? "",
    });
    expect(located.status).toBe(200);
    expect(located.body.name).toBe("Through the gateway");
    for (let step = 0; step < 6; step += 1) {
      const page = await user.post("/pages", { title: `Step ${step}`, parentId: folder.body.id, markdown: "body" });
      expect(page.status).toBe(201);
      const token = page.headers.get("x-consistency-token") ?? "";
      const read = await user.get(`/pages/${String(page.body.id)}`, {
        "x-consistency-token": token,
        "x-request-id": `step-${step}`,
      });
      expect(read.status).toBe(200);
      expect(read.headers.get("x-request-id")).toBe(`step-${step}`);
    }
    const listed = await user.get(`/pages?parentId=${String(folder.body.id)}`);
    expect((listed.body.data as unknown[]).length).toBe(6);
  });

  it("serves the whole API's reference through the gateway: a query node's document holds the writes too", async () => {
    const document = await fetch(`${gateway.url}/api/v1/openapi.json`);
    expect(document.status).toBe(200);
    const { paths } = (await document.json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(paths["/api/v1/pages"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(Object.keys(paths["/api/v1/pages/{pageId}/content"] ?? {}).sort()).toEqual(["get", "patch", "put"]);
    expect(paths["/api/v1/pages/{pageId}/images"]).toHaveProperty("post");
    expect(paths["/api/v1/images/{imageId}"]).toHaveProperty("get");
    expect(Object.keys(paths).some((path) => path.startsWith("/internal"))).toBe(false);
    const page = await fetch(`${gateway.url}/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("swagger");
    const shown = (await (await fetch(`${gateway.url}/docs/json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(shown.paths["/api/v1/pages"]).toHaveProperty("post");
  });

  it("keeps a client's keep-alive connection open past nginx's default 1,000 requests", async () => {
    // nginx closes a client connection after keepalive_requests answers (1,000 by default); a client that writes
    // its next request before it reads that close (as the benchmark's autocannon does) gets a reset.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<Socket>();
    const closing: number[] = [];
    try {
      for (let request = 1; request <= 1_001; request += 1) {
        const answer = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
          const sent = httpGet(`${gateway.url}/healthz`, { agent }, (response) => {
            response.resume();
            response.on("end", () =>
              resolve({ status: response.statusCode ?? 0, connection: response.headers.connection }),
            );
          });
          sent.on("socket", (socket) => sockets.add(socket));
          sent.on("error", reject);
        });
        expect(answer.status).toBe(200);
        if (answer.connection === "close") closing.push(request);
      }
    } finally {
      agent.destroy();
    }
    expect(closing).toEqual([]);
    expect(sockets.size).toBe(1);
  });

  it("keeps serving reads when a query node dies", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "survivor@example.com",
      name: "Survivor",
    });
    const user = new Client(gateway.url, { cookie });
    const page = await user.post("/pages", { title: "Still readable" });
    const token = page.headers.get("x-consistency-token") ?? "";
    const [first] = split.queryApis;
    if (!first) throw new Error("no query node");
    await first.stop();
    for (let read = 0; read < 10; read += 1) {
      expect((await user.get(`/pages/${String(page.body.id)}`, { "x-consistency-token": token })).status).toBe(200);
    }
  });

  it("keeps the command API's internal routes inside", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "outsider@example.com",
      name: "Outsider",
    });
    const direct = await new Client(split.commandApi.url, { cookie }).call("POST", "/internal/v1/sightings");
    expect(direct.status).toBe(200);
    const through = await new Client(gateway.url, { cookie }).call("POST", "/internal/v1/sightings");
    expect(through.status).toBe(404);
    expect(through.body.error?.code).toBe("not_found");
  });

  it("answers /metrics with 404, while each service serves its own", async () => {
    expect((await fetch(`${split.commandApi.url}/metrics`)).status).toBe(200);
    const through = await fetch(`${gateway.url}/metrics`);
    expect(through.status).toBe(404);
    expect(((await through.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await fetch(`${gateway.url}/metrics?format=text`)).status).toBe(404);
  });

  it("takes a page of about 760 KB (buffered to disk by nginx) and refuses a 30 MB body with 413 in the API's error shape", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "big@example.com",
      name: "Big",
    });
    const user = new Client(gateway.url, { cookie });
    // 380,000 two-byte characters: within the sealed event's limit (about 780,000 bytes of UTF-8), about 760 KB on
    // the wire, far past nginx's in-memory body buffer.
    const page = await user.post("/pages", { title: "Large", markdown: "é".repeat(380_000) });
    expect(page.status).toBe(201);
    const huge = await user.call("POST", "/pages", {
      body: JSON.stringify({ title: "Huge", markdown: "x".repeat(30 * 1024 * 1024) }),
      headers: { "content-type": "application/json" },
    });
    expect(huge.status).toBe(413);
    expect(huge.headers.get("content-type")).toMatch(/^application\/json/);
    expect(huge.body.error?.code).toBe("payload_too_large");
  });

  it("passes an attachment larger than the ordinary body limit to the command API, and serves a range of it from a query node, through a share link too", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "files@example.com",
      name: "Files",
    });
    const user = new Client(gateway.url, { cookie });
    const page = await user.post("/pages", { title: "With a file", markdown: "see the file" });
    expect(page.status).toBe(201);
    const bytes = Buffer.alloc(3 * 1024 * 1024, 7);
    bytes.write("%PDF-1.7", 0, "latin1");
    const uploaded = await attach(user, String(page.body.id), { bytes, name: "scan.pdf" });
    expect(uploaded.status, uploaded.text).toBe(201);
    const response = await fetch(`${gateway.url}${String(uploaded.body.url)}`, {
      headers: {
        ...authHeaders(user),
        range: "bytes=0-7",
        "x-consistency-token": String(uploaded.headers.get("x-consistency-token")),
      },
    });
    expect(response.status).toBe(206);
    expect(Buffer.from(await response.arrayBuffer()).toString("latin1")).toBe("%PDF-1.7");
    // Through a share link too: /s/ goes to the query nodes, which serve the file without credentials.
    const link = await user.post(`/pages/${String(page.body.id)}/share-links`, {});
    expect(link.status).toBe(201);
    const shared = await fetch(
      `${gateway.url}${new URL(String(link.body.url), gateway.url).pathname}/attachments/${String(uploaded.body.id)}`,
      { headers: { range: "bytes=0-7" } },
    );
    expect(shared.status).toBe(206);
    expect(Buffer.from(await shared.arrayBuffer()).toString("latin1")).toBe("%PDF-1.7");
  });

  it("answers its own errors in the API's error shape: an unknown path, and no upstream to reach", async () => {
    const unknown = await fetch(`${gateway.url}/no-such-place`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await unknown.json()).toEqual({ error: { code: "not_found", message: expect.any(String) } });
    const nowhere = "http://127.0.0.1:9";
    const orphan = await startGateway({ commandApi: nowhere, queryApis: [nowhere] });
    try {
      for (const [method, path] of [
        ["GET", "/api/v1/pages"],
        ["POST", "/api/v1/pages"],
      ] as const) {
        const answer = await fetch(`${orphan.url}${path}`, {
          method,
          ...(method === "POST" ? { body: "{}", headers: { "content-type": "application/json" } } : {}),
        });
        expect(answer.status, `${method} ${path}`).toBe(502);
        expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
        expect(await answer.json()).toEqual({ error: { code: "unavailable", message: expect.any(String) } });
      }
    } finally {
      await orphan.stop();
    }
  });
});
