// What a client is told about a write: never a failure or old state once its events are stored, the first
// outcome again when it retries with the same Idempotency-Key, and a consistency token checked after
// authentication.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../../support/server.ts";

let server: TestServer;
let ann: TestUser;
beforeAll(async () => {
  // A short wait, so a paused projector makes writes outlast it quickly.
  server = await TestServer.start({ settings: { CONSISTENCY_WAIT_MS: "300" } });
  ann = await server.registered("ann");
});
afterAll(async () => {
  await server.stop();
});

const withKey = (key: string) => ({ "idempotency-key": key });

/** Runs `during` while the projector is paused, so the read models do not move. */
async function withProjectorPaused<T>(during: () => Promise<T>): Promise<T> {
  await server.internals.projector.stop();
  try {
    return await during();
  } finally {
    await server.internals.projector.start();
  }
}

async function titlesOf(user: TestUser): Promise<string[]> {
  const list = await user.get("/pages?limit=100");
  return (list.body.data as Array<{ title: string }>).map((page) => page.title);
}

describe("a write stored but not yet visible", () => {
  it("answers 202 with the page's record, assembled by the write side, and a consistency token instead of an error; a retry with the key makes no second page", async () => {
    const key = randomUUID();
    const [first, retry] = await withProjectorPaused(async () => {
      const created = await ann.call("POST", "/pages", { json: { title: "Slow to show" }, headers: withKey(key) });
      const again = await ann.call("POST", "/pages", { json: { title: "Slow to show" }, headers: withKey(key) });
      return [created, again];
    });
    expect(first.status).toBe(202);
    expect(first.headers.get("x-read-side")).toBe("behind");
    expect(first.body).toEqual({
      id: expect.any(String),
      parentId: null,
      title: "Slow to show",
      icon: null,
      cover: null,
      properties: {},
      ownerId: ann.id,
      permission: "owner",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      unreachableMentions: [],
    });
    const token = first.headers.get("x-consistency-token") ?? "";
    expect(token).toMatch(/^\d+$/);
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    const read = await ann.get(`/pages/${String(first.body.id)}`, { "x-consistency-token": token });
    expect(read.status).toBe(200);
    const { unreachableMentions: _mentions, ...record } = first.body;
    expect(read.body).toEqual(record);
    expect((await titlesOf(ann)).filter((title) => title === "Slow to show")).toHaveLength(1);
  });

  it("answers a rename 202, never 200 with the old title", async () => {
    const page = await ann.post("/pages", { title: "Before" });
    const renamed = await withProjectorPaused(() => ann.patch(`/pages/${String(page.body.id)}`, { title: "After" }));
    expect(renamed.status).toBe(202);
    expect(renamed.headers.get("x-read-side")).toBe("behind");
    expect(renamed.body).toMatchObject({ id: page.body.id, title: "After", createdAt: page.body.createdAt });
    const read = await ann.get(`/pages/${String(page.body.id)}`, {
      "x-consistency-token": renamed.headers.get("x-consistency-token") ?? "",
    });
    expect(read.body).toEqual(renamed.body);
  });

  it("answers a content write 202 with the new document and its ETag, the ones a read shows once caught up", async () => {
    const page = await ann.post("/pages", { title: "Doc", markdown: "one" });
    const written = await withProjectorPaused(() =>
      ann.call("PUT", `/pages/${String(page.body.id)}/content`, {
        json: { markdown: "two" },
        headers: { "if-match": "*" },
      }),
    );
    expect(written.status).toBe(202);
    expect(written.headers.get("content-type")).toMatch(/^text\/markdown/);
    const read = await ann.get(`/pages/${String(page.body.id)}/content`, {
      "x-consistency-token": written.headers.get("x-consistency-token") ?? "",
    });
    expect(written.headers.get("etag")).toBe(read.headers.get("etag"));
    expect(written.text.replace(/^updatedAt: .*$/m, "")).toBe(read.text.replace(/^updatedAt: .*$/m, ""));
    expect(written.text.endsWith("\ntwo")).toBe(true);
  });

  it("answers a token and a webhook created while the read side is behind with their records, secret and id included", async () => {
    const [token, webhook] = await withProjectorPaused(async () => [
      await ann.post("/tokens", { name: "while behind", scopes: ["pages:read"] }),
      await ann.post("/webhooks", { url: "https://hooks.example.com/in", events: ["*"] }),
    ]);
    expect(token.status).toBe(202);
    expect(token.body).toEqual({
      id: expect.any(String),
      name: "while behind",
      scopes: ["pages:read"],
      expiresAt: null,
      lastUsedAt: null,
      createdAt: expect.any(String),
      token: expect.any(String),
    });
    expect(webhook.status).toBe(202);
    expect(webhook.body).toMatchObject({
      id: expect.any(String),
      url: "https://hooks.example.com/in",
      active: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    const read = await ann.get(`/webhooks/${String(webhook.body.id)}`, {
      "x-consistency-token": webhook.headers.get("x-consistency-token") ?? "",
    });
    const { secret: _secret, ...record } = webhook.body;
    expect(read.body).toEqual(record);
  });

  it("answers a folder and a comment thread created while the read side is behind with their records", async () => {
    const page = await ann.post("/pages", { title: "Commented", markdown: "some words here" });
    const [folder, thread] = await withProjectorPaused(async () => [
      await ann.post("/folders", { name: "Later" }),
      await ann.post(`/pages/${String(page.body.id)}/comments`, { body: "first", anchor: { quote: "words" } }),
    ]);
    expect(folder.status).toBe(202);
    expect(folder.body).toMatchObject({ name: "Later", parentId: null, permission: "owner", ownerId: ann.id });
    expect(thread.status).toBe(202);
    expect(thread.body.thread).toMatchObject({
      pageId: page.body.id,
      status: "open",
      anchor: { quote: "words", prefix: "", suffix: "", found: true },
    });
    const token = thread.headers.get("x-consistency-token") ?? "";
    const threads = await ann.get(`/pages/${String(page.body.id)}/comments`, { "x-consistency-token": token });
    expect(threads.body.data).toEqual([thread.body.thread]);
    expect((await ann.get(`/folders/${String(folder.body.id)}`, { "x-consistency-token": token })).body).toEqual(
      folder.body,
    );
  });
});

describe("Idempotency-Key on creating POSTs", () => {
  it("replays the first response for the same key and body, with no second folder", async () => {
    const key = randomUUID();
    const first = await ann.call("POST", "/folders", { json: { name: "Once" }, headers: withKey(key) });
    const again = await ann.call("POST", "/folders", { json: { name: "Once" }, headers: withKey(`"${key}"`) });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const folders = await ann.get("/folders?limit=100");
    expect((folders.body.data as Array<{ name: string }>).filter((folder) => folder.name === "Once")).toHaveLength(1);
  });

  it("refuses the same key with another body (422) and a duplicate still running (409)", async () => {
    const key = randomUUID();
    expect((await ann.call("POST", "/pages", { json: { title: "First use" }, headers: withKey(key) })).status).toBe(
      201,
    );
    const other = await ann.call("POST", "/pages", { json: { title: "Another page" }, headers: withKey(key) });
    expect(other.status).toBe(422);
    expect(other.body.error?.code).toBe("idempotency_key_mismatch");

    const running = randomUUID();
    const [slow, duplicate] = await withProjectorPaused(async () => {
      const first = ann.call("POST", "/pages", { json: { title: "Running" }, headers: withKey(running) });
      // The first request now waits for the paused projection with its key claimed.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = await ann.call("POST", "/pages", { json: { title: "Running" }, headers: withKey(running) });
      return [await first, second];
    });
    expect(slow.status).toBe(202);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error?.code).toBe("conflict");
  });

  it("scopes keys to the caller, refuses malformed keys, and keeps them across a restart", async () => {
    const local = await TestServer.start();
    try {
      const bob = await local.registered("bob");
      const carol = await local.registered("carol");
      const key = randomUUID();
      const bobs = await bob.call("POST", "/pages", { json: { title: "Mine" }, headers: withKey(key) });
      const carols = await carol.call("POST", "/pages", { json: { title: "Mine" }, headers: withKey(key) });
      expect(carols.status).toBe(201);
      expect(carols.body.id).not.toBe(bobs.body.id);
      expect(
        (await bob.call("POST", "/pages", { json: { title: "x" }, headers: withKey("bad key with spaces") })).status,
      ).toBe(400);
      await local.restart();
      const replayed = await bob.call("POST", "/pages", { json: { title: "Mine" }, headers: withKey(key) });
      expect(replayed.status).toBe(bobs.status);
      expect(replayed.body).toEqual(bobs.body);
      expect(await titlesOf(bob)).toEqual(["Mine"]);
    } finally {
      await local.stop();
    }
  });

  it("makes a comment thread once per key", async () => {
    const page = await ann.post("/pages", { title: "Discussed", markdown: "text" });
    const key = randomUUID();
    const json = { body: "first!", anchor: { quote: "text" } };
    const first = await ann.call("POST", `/pages/${String(page.body.id)}/comments`, { json, headers: withKey(key) });
    const again = await ann.call("POST", `/pages/${String(page.body.id)}/comments`, { json, headers: withKey(key) });
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await ann.get(`/pages/${String(page.body.id)}/comments`)).body.data).toHaveLength(1);
  });
});

describe("X-Consistency-Token on reads", () => {
  it("authenticates before it waits: a stranger gets 401 at once, whatever the token", async () => {
    const reply = await server.anonymous().get("/pages", { "x-consistency-token": "999999999999" });
    expect(reply.status).toBe(401);
  });

  it("refuses at once a token beyond the log's head, and one that is not a 64-bit decimal", async () => {
    expect((await ann.get("/pages", { "x-consistency-token": "999999999999" })).status).toBe(400);
    expect((await ann.get("/pages", { "x-consistency-token": "18446744073709551616" })).status).toBe(400);
    expect((await ann.get("/pages", { "x-consistency-token": "-1" })).status).toBe(400);
  });
});
