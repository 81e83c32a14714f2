// What one user's webhooks may cost everyone else: a quota of webhooks, one replay at a time per webhook, and a
// fair share of the sending slots, so a user whose endpoints never answer delays only their own webhooks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../../support/server.ts";
import { receiversForFile } from "../../support/webhook-receiver.ts";
import { createPage } from "../../support/workspace-builders.ts";
import { until } from "../../support/poll.ts";

const receiver = receiversForFile();

async function webhook(user: TestUser, url: string, events: string[] = ["page.created"]): Promise<string> {
  const created = await user.post("/webhooks", { url, events });
  expect(created.status).toBe(201);
  return String(created.body.id);
}

describe("webhook quotas", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start({
      settings: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", WEBHOOKS_PER_USER: "3", WEBHOOK_REPLAY_QUEUE: "2" },
    });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("a user may have WEBHOOKS_PER_USER webhooks; one more answers 409 quota_exceeded until one is deleted", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const ids = [];
    for (let index = 0; index < 3; index += 1) ids.push(await webhook(ann, `https://hooks.example.com/${index}`));
    const refused = await ann.post("/webhooks", { url: "https://hooks.example.com/3", events: ["*"] });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({ code: "quota_exceeded", message: expect.stringContaining("3 webhooks") });
    expect((await bob.post("/webhooks", { url: "https://hooks.example.com/bob", events: ["*"] })).status).toBe(201);
    expect((await ann.delete(`/webhooks/${String(ids[0])}`)).status).toBe(204);
    expect((await ann.post("/webhooks", { url: "https://hooks.example.com/again", events: ["*"] })).status).toBe(201);
  });

  it("concurrent creations of one user cannot pass the quota together", async () => {
    const cy = await server.registered("cy");
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        cy.post("/webhooks", { url: `https://93.184.216.34/burst-${index}`, events: ["*"] }),
      ),
    );
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(3);
    expect(replies.filter((reply) => reply.status === 409 && reply.body.error?.code === "quota_exceeded")).toHaveLength(
      5,
    );
    expect(((await cy.get("/webhooks")).body.data as unknown[]).length).toBe(3);
  });

  it("a second replay of a webhook while one is still queued answers 409 quota_exceeded", async () => {
    const ann = await server.registered("ann");
    // The endpoint fails every attempt, so deliveries stay pending and the replay waits for room.
    const endpoint = await receiver(() => 503);
    const id = await webhook(ann, endpoint.url);
    const first = await ann.post("/pages", { title: "first" });
    const after = String(first.headers.get("x-consistency-token"));
    for (let index = 0; index < 3; index += 1) await createPage(ann);
    await until(
      async () => (await ann.get(`/webhooks/${id}/deliveries`)).body.data as unknown[],
      (rows) => rows.length === 4,
    );
    expect((await ann.post(`/webhooks/${id}/replay`, { after: "0" })).status).toBe(202);
    const again = await ann.post(`/webhooks/${id}/replay`, { after });
    expect(again.status).toBe(409);
    expect(again.body.error?.code).toBe("quota_exceeded");
    // Nothing was queued beyond the live deliveries: the replay waits while the endpoint fails.
    expect(((await ann.get(`/webhooks/${id}/deliveries`)).body.data as unknown[]).length).toBe(4);
  });
});

describe("addresses refused when a webhook is registered", () => {
  let guarded: TestServer;
  beforeAll(async () => {
    guarded = await TestServer.start();
  });
  afterAll(async () => {
    await guarded.stop();
  });

  it("a private or loopback URL answers 400 naming WEBHOOK_ALLOW_PRIVATE_NETWORKS, in every spelling, and nothing is called", async () => {
    const ann = await guarded.registered("ann");
    const endpoint = await receiver();
    const port = new URL(endpoint.url).port;
    for (const url of [
      endpoint.url,
      `http://localhost:${port}/hook`,
      `http://api.localhost:${port}/hook`,
      `http://[::1]:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
      `http://[::127.0.0.1]:${port}/hook`,
      `http://[::ffff:0:127.0.0.1]:${port}/hook`,
      `http://2130706433:${port}/hook`,
      "http://10.0.0.7/hook",
      "http://169.254.169.254/latest/meta-data",
    ]) {
      const refused = await ann.post("/webhooks", { url, events: ["page.created"] });
      expect(refused.status, url).toBe(400);
      expect(refused.body.error?.code).toBe("validation_failed");
      expect(refused.body.error?.message).toContain("WEBHOOK_ALLOW_PRIVATE_NETWORKS");
    }
    const id = await webhook(ann, "https://hooks.example.com/in");
    const moved = await ann.patch(`/webhooks/${id}`, { url: endpoint.url });
    expect(moved.status).toBe(400);
    expect(moved.body.error?.message).toContain("WEBHOOK_ALLOW_PRIVATE_NETWORKS");
    expect(((await ann.get("/webhooks")).body.data as unknown[]).length).toBe(1);
    expect(endpoint.received).toHaveLength(0);
  });
});

describe("fair delivery between users", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start({ settings: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" } });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("one user's many webhooks to an endpoint that never answers do not delay another user's delivery", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const silent = await receiver(() => new Promise<number>(() => undefined));
    for (let index = 0; index < 40; index += 1) await webhook(ann, silent.url);
    for (let index = 0; index < 3; index += 1) await createPage(ann);
    await until(
      async () => silent.received.length,
      (count) => count >= 4,
    );
    const healthy = await receiver();
    await webhook(bob, healthy.url);
    const page = await createPage(bob);
    // Before fair claims, every sending slot waited out the 10 s time limit on the silent endpoint, round after
    // round, and bob's delivery came after about 20 s.
    const [received] = await healthy.waitFor(1, 9_000);
    expect(received?.json.data.pageId).toBe(page);
    // ann's webhooks held at most WEBHOOK_OWNER_IN_FLIGHT (4) connections to the silent endpoint meanwhile.
    expect(silent.received.length).toBeLessThanOrEqual(4);
    await silent.stop();
  }, 60_000);
});
