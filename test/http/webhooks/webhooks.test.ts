import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../../support/server.ts";
import { receiversForFile, verifyStandardWebhook } from "../../support/webhook-receiver.ts";
import { createFolder, createPage, share } from "../../support/workspace-builders.ts";
import { makeImage, upload } from "../../support/images.ts";
import { until } from "../../support/poll.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start({
    settings: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", WEBHOOK_FIRST_RETRY_MS: "20" },
  });
});
afterAll(async () => {
  await server.stop();
});

const receiver = receiversForFile();

async function webhook(
  user: TestUser,
  url: string,
  body: Record<string, unknown> = {},
): Promise<{ id: string; secret: string }> {
  const created = await user.post("/webhooks", { url, events: ["*"], ...body });
  expect(created.status).toBe(201);
  return { id: String(created.body.id), secret: String(created.body.secret) };
}

type Delivery = {
  id: string;
  status: string;
  attempts: number;
  lastResponseStatus: number | null;
  lastError: string | null;
  type: string;
  position: string;
};
const deliveries = async (user: TestUser, webhookId: string): Promise<Delivery[]> =>
  (await user.get(`/webhooks/${webhookId}/deliveries`)).body.data as Delivery[];

describe("managing webhooks", () => {
  it("creates a webhook whose secret is shown once and appears in no event, and lists it without the secret", async () => {
    const ann = await server.registered("ann");
    const created = await ann.post("/webhooks", {
      url: "https://hooks.example.com/in",
      events: ["page.created", "comment.created"],
      description: "indexer",
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      url: "https://hooks.example.com/in",
      events: ["page.created", "comment.created"],
      description: "indexer",
      folderId: null,
      active: true,
      disabledReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const secret = String(created.body.secret);
    const one = await ann.get(`/webhooks/${String(created.body.id)}`);
    expect(one.status).toBe(200);
    expect(one.text).not.toContain(secret.slice(6));
    const list = await ann.get("/webhooks");
    expect((list.body.data as { id: string }[]).map((item) => item.id)).toEqual([created.body.id]);
    const stream = await server.internals.eventStore.read(`webhook-${String(created.body.id)}`);
    expect(JSON.stringify(stream.events)).not.toContain(secret.slice(6));
    expect(JSON.stringify(stream.events)).not.toContain(Buffer.from(secret.slice(6), "base64").toString("hex"));
  });

  it("is managed with a browser session only, and another user's webhook answers as a missing one", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const token = await server.tokenClient(ann, ["pages:read", "pages:write"]);
    expect((await token.post("/webhooks", { url: "https://hooks.example.com/x", events: ["*"] })).status).toBe(403);
    const { id } = await webhook(ann, "https://hooks.example.com/y");
    expect((await token.get(`/webhooks/${id}`)).status).toBe(403);
    expect((await bob.get(`/webhooks/${id}`)).status).toBe(404);
    expect((await bob.patch(`/webhooks/${id}`, { active: false })).status).toBe(404);
    expect((await bob.delete(`/webhooks/${id}`)).status).toBe(404);
    expect((await bob.get(`/webhooks/${id}/deliveries`)).status).toBe(404);
  });

  it("refuses an unknown event name, an empty list and a non-http URL", async () => {
    const ann = await server.registered("ann");
    for (const body of [
      { url: "https://hooks.example.com/", events: ["page.exploded"] },
      { url: "https://hooks.example.com/", events: [] },
      { url: "ftp://hooks.example.com/", events: ["*"] },
      { url: "https://user:pw@hooks.example.com/", events: ["*"] },
    ]) {
      const reply = await ann.post("/webhooks", body);
      expect(reply.status).toBe(400);
      expect(reply.body.error?.code).toBe("validation_failed");
    }
  });

  it("changes and deletes a webhook", async () => {
    const ann = await server.registered("ann");
    const { id } = await webhook(ann, "https://hooks.example.com/a");
    const changed = await ann.patch(`/webhooks/${id}`, {
      url: "https://hooks.example.com/b",
      events: ["page.deleted"],
      active: false,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ url: "https://hooks.example.com/b", events: ["page.deleted"], active: false });
    expect((await ann.delete(`/webhooks/${id}`)).status).toBe(204);
    expect((await ann.get(`/webhooks/${id}`)).status).toBe(404);
  });
});

describe("delivering webhooks", () => {
  it("signs each delivery as Standard Webhooks says, with ids but no content", async () => {
    const ann = await server.registered("ann");
    const endpoint = await receiver();
    const { id, secret } = await webhook(ann, endpoint.url, { events: ["page.created"] });
    const pageId = await createPage(ann, { title: "Secret plans", markdown: "the content" });
    const [received] = await endpoint.waitFor(1);
    expect(received).toBeDefined();
    if (!received) return;
    expect(verifyStandardWebhook(secret, received.headers, received.body)).toBe(true);
    expect(
      verifyStandardWebhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`, received.headers, received.body),
    ).toBe(false);
    expect(received.json).toEqual({
      type: "page.created",
      timestamp: expect.any(String),
      data: expect.objectContaining({
        eventId: expect.any(String),
        position: expect.stringMatching(/^\d+$/),
        actorId: ann.id,
        pageId,
        scope: { type: "page", id: pageId },
      }),
    });
    expect(received.body).not.toContain("Secret plans");
    expect(received.body).not.toContain("the content");
    const log = await until(
      () => deliveries(ann, id),
      (rows) => rows[0]?.status === "delivered",
    );
    expect(log).toEqual([
      expect.objectContaining({
        id: received.headers["webhook-id"],
        type: "page.created",
        status: "delivered",
        attempts: 1,
        lastResponseStatus: 200,
      }),
    ]);
  });

  it("retries after a 503 with the same webhook-id, and records both attempts", async () => {
    const ann = await server.registered("ann");
    const endpoint = await receiver((_received, index) => (index === 0 ? 503 : 204));
    const { id } = await webhook(ann, endpoint.url, { events: ["folder.created"] });
    await createFolder(ann);
    const [first, second] = await endpoint.waitFor(2);
    expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
    const log = await until(
      () => deliveries(ann, id),
      (rows) => rows[0]?.status === "delivered",
    );
    expect(log[0]).toMatchObject({ attempts: 2, lastResponseStatus: 204 });
  });

  it("disables the webhook when the endpoint answers 410 Gone, with the reason shown", async () => {
    const ann = await server.registered("ann");
    const endpoint = await receiver(() => 410);
    const { id } = await webhook(ann, endpoint.url);
    await createPage(ann);
    await endpoint.waitFor(1);
    const shown = await until(
      () => ann.get(`/webhooks/${id}`),
      (reply) => reply.body.active === false,
    );
    expect(String(shown.body.disabledReason)).toContain("410");
    const log = await until(
      () => deliveries(ann, id),
      (rows) => rows[0]?.status === "failed",
    );
    expect(log[0]).toMatchObject({ lastResponseStatus: 410, attempts: 1 });
  });

  it("replays every matching event after a position, each with a new webhook-id", async () => {
    const ann = await server.registered("ann");
    const endpoint = await receiver();
    const { id } = await webhook(ann, endpoint.url, { events: ["page.created"] });
    const first = await ann.post("/pages", { title: "one" });
    const after = first.headers.get("x-consistency-token");
    const second = await createPage(ann, { title: "two" });
    const delivered = await endpoint.waitFor(2);
    const replay = await ann.post(`/webhooks/${id}/replay`, { after });
    expect(replay.status).toBe(202);
    const [, , replayed] = await endpoint.waitFor(3);
    expect(replayed?.json.data.pageId).toBe(second);
    expect(delivered.map((r) => r.headers["webhook-id"])).not.toContain(replayed?.headers["webhook-id"]);
    expect(
      await until(
        () => deliveries(ann, id),
        (rows) => rows.length === 3 && rows.every((row) => row.status === "delivered"),
      ),
    ).toHaveLength(3);
  });

  it("a delivery can be retried by hand, with its webhook-id", async () => {
    const ann = await server.registered("ann");
    const endpoint = await receiver();
    const { id } = await webhook(ann, endpoint.url, { events: ["page.created"] });
    await createPage(ann);
    const [sent] = await endpoint.waitFor(1);
    const [row] = await until(
      () => deliveries(ann, id),
      (rows) => rows[0]?.status === "delivered",
    );
    expect((await ann.post(`/webhooks/${id}/deliveries/${String(row?.id)}/retry`)).status).toBe(202);
    const [, again] = await endpoint.waitFor(2);
    expect(again?.headers["webhook-id"]).toBe(sent?.headers["webhook-id"]);
  });

  it("sends only events the owner can view when they are delivered: a revoked grant stops them", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const folder = await createFolder(ann);
    await share(ann, "folder", folder, bob.email, "view");
    const endpoint = await receiver();
    await webhook(bob, endpoint.url, { events: ["page.created"] });
    const seen = await createPage(ann, { parentId: folder });
    const [first] = await endpoint.waitFor(1);
    expect(first?.json.data.pageId).toBe(seen);
    expect((await ann.delete(`/shares/entity/folder/${folder}/grants/${bob.id}`)).status).toBeLessThan(300);
    await createPage(ann, { parentId: folder });
    await createPage(ann);
    const marker = await createPage(bob);
    const [, next] = await endpoint.waitFor(2);
    expect(next?.json.data.pageId).toBe(marker);
  });

  it("names no folder its owner cannot view: a page moved between two hidden folders is delivered without their ids", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const hidden = await createFolder(ann, { name: "Top Secret M&A Project" });
    const otherHidden = await createFolder(ann, { name: "Board only" });
    const page = await createPage(ann, { parentId: hidden });
    await share(ann, "page", page, bob.email, "view");
    const endpoint = await receiver();
    await webhook(bob, endpoint.url, { events: ["page.moved"] });
    expect((await ann.post(`/pages/${page}/move`, { parentId: otherHidden })).status).toBeLessThan(300);
    const [moved] = await endpoint.waitFor(1);
    expect(moved?.json.data.pageId).toBe(page);
    expect(moved?.body).not.toContain(hidden);
    expect(moved?.body).not.toContain(otherHidden);
  });

  it("tells of an uploaded image by its ids, without its name or alt text", async () => {
    const ann = await server.registered("ann");
    const endpoint = await receiver();
    await webhook(ann, endpoint.url, { events: ["image.uploaded"] });
    const pageId = await createPage(ann);
    const uploaded = await upload(ann, pageId, {
      file: { bytes: await makeImage("png"), name: "holiday.png", type: "image/png" },
      alt: "beach at dusk",
    });
    expect(uploaded.status).toBe(201);
    const [received] = await endpoint.waitFor(1);
    expect(received?.json).toMatchObject({
      type: "image.uploaded",
      data: { pageId, imageId: uploaded.body.id, scope: { type: "page", id: pageId } },
    });
    expect(received?.body).not.toContain("holiday");
    expect(received?.body).not.toContain("beach");
  });

  it("a webhook limited to a folder gets only what lies below it", async () => {
    const ann = await server.registered("ann");
    const folder = await createFolder(ann);
    const inner = await createFolder(ann, { parentId: folder });
    const endpoint = await receiver();
    await webhook(ann, endpoint.url, { events: ["page.created"], folderId: folder });
    await createPage(ann);
    const below = await createPage(ann, { parentId: inner });
    const [first] = await endpoint.waitFor(1);
    expect(first?.json.data.pageId).toBe(below);
  });
});

describe("webhook metrics", () => {
  it("counts deliveries by outcome and reports the queue", async () => {
    const ann = await server.registered("ann");
    const endpoint = await receiver((_received, index) => (index === 0 ? 500 : 200));
    const { id } = await webhook(ann, endpoint.url, { events: ["page.created"] });
    await createPage(ann);
    await endpoint.waitFor(2);
    await until(
      () => deliveries(ann, id),
      (rows) => rows[0]?.status === "delivered",
    );
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toMatch(/webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
    expect(text).toMatch(/webhook_deliveries_total\{outcome="retrying"\} [1-9]/);
    expect(text).toMatch(/^webhook_deliveries_pending \d+/m);
    expect(text).toMatch(/^webhook_queue_oldest_age_seconds [\d.]+/m);
  });
});
