// Per-caller rate limits over the real all-in-one server, with low budgets and the server's clock held at
// 30 s into a minute, so every window's reset is exactly 30 s away.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../shared/http/create-app.ts";
import { createLogger } from "../../../shared/logging/logger.ts";
import { TestServer, type Client, type Reply } from "../../support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start({
    clock: () => new Date("2026-01-01T00:00:30Z"),
    settings: {
      RATE_LIMIT_READ: "5/1m",
      RATE_LIMIT_WRITE: "3/1m",
      RATE_LIMIT_SEARCH: "2/1m",
      RATE_LIMIT_UPLOAD: "1/1m",
      RATE_LIMIT_IMPORT: "1/1m",
    },
  });
});
afterAll(async () => {
  await server.stop();
});

const createFolder = (client: Client): Promise<Reply> =>
  client.post("/folders", { name: `f-${randomUUID().slice(0, 8)}` });

function expectLimited(reply: Reply, rateClass: string, quota: number): void {
  expect(reply.status).toBe(429);
  expect(reply.body).toEqual({
    error: { code: "rate_limited", message: `too many ${rateClass} requests; retry in 30 s` },
  });
  expect(reply.headers.get("retry-after")).toBe("30");
  expect(reply.headers.get("ratelimit-policy")).toBe(`"${rateClass}";q=${quota};w=60`);
  expect(reply.headers.get("ratelimit")).toBe(`"${rateClass}";r=0;t=30`);
}

describe("rate limits", () => {
  it("answers a caller past its write budget 429 rate_limited with Retry-After and the RateLimit fields, and does not write", async () => {
    const ann = await server.registered("ann");
    const answers = [await createFolder(ann), await createFolder(ann), await createFolder(ann)];
    expect(answers.map((reply) => reply.status)).toEqual([201, 201, 201]);
    expect(answers.map((reply) => reply.headers.get("ratelimit"))).toEqual([
      '"write";r=2;t=30',
      '"write";r=1;t=30',
      '"write";r=0;t=30',
    ]);
    expect(answers[0]?.headers.get("ratelimit-policy")).toBe('"write";q=3;w=60');
    expect(answers[0]?.headers.get("retry-after")).toBeNull();

    expectLimited(await createFolder(ann), "write", 3);
    expectLimited(await ann.delete(`/folders/${randomUUID()}`), "write", 3);
    const folders = await ann.get("/folders");
    expect(folders.status).toBe(200);
    expect(folders.body.data).toHaveLength(3);
  });

  it("gives each caller a budget of its own: another user, and each API token apart from its user's session", async () => {
    const bea = await server.registered("bea");
    const token = await server.tokenClient(bea, ["pages:read", "pages:write"]);
    await createFolder(bea);
    await createFolder(bea);
    expectLimited(await createFolder(bea), "write", 3);

    const byToken = await createFolder(token);
    expect(byToken.status).toBe(201);
    // The token's own budget has 2 left, the one all of Bea's credentials share (twice a quota) only 1: the
    // answer names the one that binds.
    expect(byToken.headers.get("ratelimit")).toBe('"write-user";r=1;t=30');
    expect(byToken.headers.get("ratelimit-policy")).toBe('"write-user";q=6;w=60');
    const cal = await server.registered("cal");
    expect((await createFolder(cal)).status).toBe(201);
  });

  it("keeps each class's budget apart: out of writes, a caller still reads; search, uploads and imports spend their own", async () => {
    const dan = await server.registered("dan");
    for (let n = 0; n < 3; n += 1) await createFolder(dan);
    expectLimited(await createFolder(dan), "write", 3);

    const read = await dan.get("/pages");
    expect(read.status).toBe(200);
    expect(read.headers.get("ratelimit-policy")).toBe('"read";q=5;w=60');

    expect((await dan.get("/search?q=anything")).status).toBe(200);
    expect((await dan.get("/search?q=anything")).headers.get("ratelimit")).toBe('"search";r=0;t=30');
    expectLimited(await dan.get("/search?q=anything"), "search", 2);

    // A refused request spends its unit too: the budget bounds the work of asking, not only of succeeding.
    expect((await dan.call("POST", "/imports/obsidian", { json: { files: [{ path: "a.md" }] } })).status).toBe(400);
    expectLimited(
      await dan.call("POST", "/imports/obsidian", { json: { files: [{ path: "a.md", content: "# A" }] } }),
      "import",
      1,
    );
    expect((await dan.call("POST", `/pages/${randomUUID()}/images`, { body: new FormData() })).status).not.toBe(429);
    expectLimited(await dan.call("POST", `/pages/${randomUUID()}/images`, { body: new FormData() }), "upload", 1);
    expect((await dan.get("/pages")).status).toBe(200);
  });

  it("limits an unauthenticated caller by its address, apart from a signed-in caller on that address", async () => {
    const anonymous = server.anonymous();
    const answers: number[] = [];
    for (let n = 0; n < 5; n += 1) answers.push((await anonymous.get("/api/v1/openapi.json")).status);
    expect(answers).toEqual([200, 200, 200, 200, 200]);
    expectLimited(await anonymous.get("/api/v1/openapi.json"), "read", 5);
    const eve = await server.registered("eve");
    expect((await eve.get("/me")).status).toBe(200);
  });

  it("never limits /healthz, /readyz or /metrics", async () => {
    for (let n = 0; n < 12; n += 1) {
      for (const path of ["/healthz", "/readyz", "/metrics"]) {
        const response = await fetch(`${server.url}${path}`);
        await response.arrayBuffer();
        expect(response.status).toBe(200);
        expect(response.headers.get("ratelimit")).toBeNull();
      }
    }
  });
});

describe("rate limits without their counter store", () => {
  it("let requests through when the counters cannot be reached, rather than refusing the API", async () => {
    const unreachable = {
      increment: () => Promise.reject(new Error("connection refused")),
      close: async () => undefined,
    };
    const oneEach = { quota: 1, windowSeconds: 60 };
    const app = createApp({
      logger: createLogger("silent"),
      bodyLimit: 1024,
      rateLimits: {
        counters: unreachable,
        policies: {
          read: oneEach,
          write: oneEach,
          search: oneEach,
          upload: oneEach,
          import: oneEach,
          sharing: oneEach,
        },
      },
    });
    app.get("/api/v1/pages", async () => ({ data: [] }));
    const answers = [];
    for (let n = 0; n < 3; n += 1) answers.push(await app.inject({ method: "GET", url: "/api/v1/pages" }));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(answers[0]?.headers.ratelimit).toBeUndefined();
    await app.close();
  });
});
