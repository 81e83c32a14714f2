// A vault export costs its caller, not everyone: its parsing and compression run in the worker pool, so the
// process keeps answering others while it runs (a generous bound on a probe's answer, not a benchmark); a page
// too complex to parse within the pool's limit is exported as it is; exports at once are bounded per user (429)
// and per process (503).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type Client } from "../../support/server.ts";
import { exportVault } from "../../support/vault-zip.ts";

/** Far more than a request takes on a loaded machine, far less than a parse or deflate on the event loop took. */
const ANSWER_BOUND_MS = 2_000;

const text = (files: Map<string, Uint8Array>, path: string): string =>
  Buffer.from(files.get(path) ?? []).toString("utf8");

/** Asks `path` again and again until `work` settles; the slowest answer's time (ms). */
async function slowestAnswerDuring(client: Client, path: string, work: Promise<unknown>): Promise<number> {
  let settled = false;
  const done = work.finally(() => (settled = true));
  let slowest = 0;
  let answers = 0;
  while (!settled || answers === 0) {
    const started = performance.now();
    const reply = await client.get(path);
    expect(reply.status).toBe(200);
    slowest = Math.max(slowest, performance.now() - started);
    answers += 1;
  }
  await done;
  return slowest;
}

/** The export's response as soon as its headers come, its body not read. */
function exportRequest(client: Client, folderId?: string): Promise<Response> {
  const headers: Record<string, string> = {};
  if (client.credentials && "cookie" in client.credentials)
    headers.cookie = `app-auth.session_token=${client.credentials.cookie}`;
  return fetch(`${client.baseUrl}/api/v1/exports/obsidian${folderId === undefined ? "" : `?folderId=${folderId}`}`, {
    headers,
  });
}

describe("an export's parsing", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start({ settings: { WORKER_TASK_TIME_LIMIT_MS: "3000" } });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("leaves /healthz answering while a page of 40,000 brackets is parsed, and exports that page as it is", async () => {
    const ann = await server.registered("ann");
    const other = await ann.post("/pages", { title: "Other", markdown: "plain" });
    const markdown = `[Other](/api/v1/pages/${String(other.body.id)}) ${"[x]".repeat(40_000)}`;
    expect((await ann.post("/pages", { title: "Brackets", markdown })).status).toBe(201);
    const exporting = exportVault(ann);
    const slowest = await slowestAnswerDuring(server.anonymous(), "/healthz", exporting);
    expect(slowest).toBeLessThan(ANSWER_BOUND_MS);
    const exported = await exporting;
    expect(exported.status).toBe(200);
    expect(text(exported.files, "Brackets.md")).toBe(markdown);
    expect(text(exported.files, "Other.md")).toBe("plain");
  });
});

describe("concurrent exports of large compressible pages", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start({ settings: { EXPORT_MAX_PER_USER: "3" } });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("leave another user's requests answering", async () => {
    const bea = await server.registered("bea");
    const cal = await server.registered("cal");
    for (let index = 0; index < 60; index++)
      expect((await bea.post("/pages", { title: `Omega ${index}`, markdown: "Ω".repeat(380_000) })).status).toBe(201);
    const exports = Promise.all([exportVault(bea), exportVault(bea), exportVault(bea)]);
    const slowest = await slowestAnswerDuring(cal, "/me", exports);
    expect(slowest).toBeLessThan(ANSWER_BOUND_MS);
    for (const exported of await exports) {
      expect(exported.status).toBe(200);
      expect(exported.files.size).toBe(60);
      expect(text(exported.files, "Omega 7.md")).toBe("Ω".repeat(380_000));
    }
  });
});

describe("exports at once", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start({ settings: { EXPORT_MAX_PER_USER: "1", EXPORT_MAX_CONCURRENT: "2" } });
  });
  afterAll(async () => {
    await server.stop();
  });

  /** A folder of incompressible pages, larger than the sockets' buffers: an export not read stays running. */
  async function largeFolder(user: Client): Promise<string> {
    const folder = await user.post("/folders", { name: "Noise" });
    expect(folder.status).toBe(201);
    const parentId = String(folder.body.id);
    for (let index = 0; index < 40; index++) {
      expect(
        (
          await user.post("/pages", {
            title: `Noise ${index}`,
            markdown: randomBytes(360_000).toString("base64"),
            parentId,
          })
        ).status,
      ).toBe(201);
    }
    return parentId;
  }

  it("are one per user (429) and two per process (503), and a slot is free again once its download ends", async () => {
    const [dan, eve, fay] = [
      await server.registered("dan"),
      await server.registered("eve"),
      await server.registered("fay"),
    ];
    const folderId = await largeFolder(dan);
    expect(
      (await dan.post(`/shares/entity/folder/${folderId}/grants`, { email: eve.email, permission: "view" })).status,
    ).toBeLessThan(300);
    const first = await exportRequest(dan);
    expect(first.status).toBe(200);
    const again = await dan.get("/exports/obsidian");
    expect(again.status).toBe(429);
    expect(again.body.error?.code).toBe("rate_limited");
    expect(again.headers.get("retry-after")).not.toBeNull();
    const second = await exportRequest(eve, folderId);
    expect(second.status).toBe(200);
    const third = await fay.get("/exports/obsidian");
    expect(third.status).toBe(503);
    expect(third.body.error?.code).toBe("unavailable");
    expect(third.headers.get("retry-after")).not.toBeNull();
    // Eve reads hers to the end; Dan goes away: both slots are given back.
    expect((await second.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
    await first.body?.cancel();
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) status = (await exportVault(dan)).status;
    expect(status).toBe(200);
    expect((await exportVault(fay)).status).toBe(200);
  });
});
