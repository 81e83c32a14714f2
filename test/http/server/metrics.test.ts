// GET /metrics: the counters and histograms of a server move with its traffic, routes are labelled by their
// pattern, and each server in a process has metrics of its own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scrape, scrapeUntil } from "../../support/metrics.ts";
import { TestServer, type TestUser } from "../../support/server.ts";
import { createPage, share, unknownAddress } from "../../support/workspace-builders.ts";

const PAGE_ROUTE = { method: "GET", route: "/api/v1/pages/:pageId", status: "200" };

describe("metrics of the all-in-one server", () => {
  let server: TestServer;
  let owner: TestUser;
  beforeAll(async () => {
    server = await TestServer.start();
    owner = await server.registered("owner", { name: "Olivia Owner" });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("serves the Prometheus text format with the process metrics", async () => {
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const metrics = await scrape(server.url);
    expect(metrics.sample("process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(metrics.text).toContain("# TYPE http_request_duration_seconds histogram");
  });

  it("counts requests by route pattern, method and status, with their latency", async () => {
    const before = await scrape(server.url);
    const pageId = await createPage(owner, { title: "Counted" });
    for (let read = 0; read < 3; read += 1) expect((await owner.get(`/pages/${pageId}`)).status).toBe(200);
    expect((await owner.get(`/pages/${crypto.randomUUID()}`)).status).toBe(404);
    const after = await scrape(server.url);
    expect(
      after.sample("http_request_duration_seconds_count", PAGE_ROUTE) -
        before.sample("http_request_duration_seconds_count", PAGE_ROUTE),
    ).toBe(3);
    expect(
      after.sample("http_request_duration_seconds_count", { ...PAGE_ROUTE, status: "404" }),
    ).toBeGreaterThanOrEqual(1);
    expect(after.sample("http_request_duration_seconds_sum", PAGE_ROUTE)).toBeGreaterThan(
      before.sample("http_request_duration_seconds_sum", PAGE_ROUTE),
    );
    expect(after.sample("http_request_duration_seconds_bucket", { ...PAGE_ROUTE, le: "+Inf" })).toBe(
      after.sample("http_request_duration_seconds_count", PAGE_ROUTE),
    );
    expect(
      after.sample("http_request_duration_seconds_count", { method: "POST", route: "/api/v1/pages", status: "201" }),
    ).toBeGreaterThanOrEqual(1);
    const routes = after.labelsOf("http_request_duration_seconds_count").map((labels) => labels.route ?? "");
    expect(routes.some((route) => route.includes(pageId))).toBe(false);
  });

  it("counts appended events by type and follows the projector's position", async () => {
    const before = await scrape(server.url);
    await createPage(owner, { title: "Appended" });
    const after = await scrape(server.url);
    expect(
      after.sample("events_appended_total", { type: "PageCreated" }) -
        before.sample("events_appended_total", { type: "PageCreated" }),
    ).toBe(1);
    // The write answered after its projection, so the projector has committed it.
    expect(after.sample("projector_position")).toBe(server.internals.projector.checkpoint);
    expect(after.sample("projector_position")).toBeGreaterThan(before.sample("projector_position"));
    expect(after.sample("projector_events_total")).toBeGreaterThan(before.sample("projector_events_total"));
    expect(after.sample("projector_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(after.sample("projector_lag_seconds")).toBeLessThan(60);
    expect(after.sample("projector_last_batch_timestamp_seconds")).toBeGreaterThan(Date.now() / 1000 - 60);
  });

  it("measures writes waiting for their projection and reads with a consistency token", async () => {
    const before = await scrape(server.url);
    const page = await owner.post("/pages", { title: "Waited for" });
    const token = page.headers.get("x-consistency-token") ?? "";
    expect((await owner.get(`/pages/${String(page.body.id)}`, { "x-consistency-token": token })).status).toBe(200);
    const after = await scrape(server.url);
    const writes = { kind: "write", outcome: "reached" };
    expect(
      after.sample("consistency_wait_seconds_count", writes) - before.sample("consistency_wait_seconds_count", writes),
    ).toBe(1);
    // The read found the read models already there: it did not wait.
    expect(after.sample("consistency_wait_seconds_count", { kind: "read" })).toBe(
      before.sample("consistency_wait_seconds_count", { kind: "read" }),
    );
  });

  it("counts an invitation's delivery as sent", async () => {
    const before = await scrape(server.url);
    const pageId = await createPage(owner);
    expect((await share(owner, "page", pageId, unknownAddress(), "view")).status).toBe(202);
    const sent = (metrics: Awaited<ReturnType<typeof scrape>>) =>
      metrics.sample("notifier_deliveries_total", { outcome: "sent" });
    await scrapeUntil(server.url, (metrics) => sent(metrics) === sent(before) + 1, "a sent delivery");
    const after = await scrape(server.url);
    expect(after.sample("events_appended_total", { type: "InvitationDelivered" })).toBeGreaterThan(
      before.sample("events_appended_total", { type: "InvitationDelivered" }),
    );
  });

  it("counts hits and misses of the session, users-seen and access-context caches", async () => {
    const newcomer = await server.signIn("newcomer");
    const before = await scrape(server.url);
    expect((await newcomer.get("/me")).status).toBe(200);
    const pageId = await createPage(newcomer);
    expect((await newcomer.get(`/pages/${pageId}`)).status).toBe(200);
    const after = await scrape(server.url);
    const moved = (name: string, cache: string) => after.sample(name, { cache }) - before.sample(name, { cache });
    expect(moved("cache_misses_total", "verified_session")).toBe(1);
    expect(moved("cache_hits_total", "verified_session")).toBeGreaterThanOrEqual(2);
    expect(moved("cache_misses_total", "user_seen")).toBe(1);
    expect(moved("cache_hits_total", "user_seen")).toBeGreaterThanOrEqual(2);
    expect(
      moved("cache_misses_total", "access_context") + moved("cache_hits_total", "access_context"),
    ).toBeGreaterThanOrEqual(2);
    expect(moved("cache_hits_total", "access_context")).toBeGreaterThanOrEqual(1);
  });
});

describe("metrics of consistency waits that time out", () => {
  let server: TestServer;
  afterAll(async () => {
    await server.stop();
  });

  it("counts a write answered 202 and a read refused for want of the projection", async () => {
    server = await TestServer.start({ settings: { CONSISTENCY_WAIT_MS: "50" } });
    const owner = await server.registered("owner");
    await server.internals.projector.stop();
    const page = await owner.post("/pages", { title: "Not yet visible" });
    expect(page.status).toBe(202);
    const token = page.headers.get("x-consistency-token") ?? "";
    expect((await owner.get(`/pages/${String(page.body.id)}`, { "x-consistency-token": token })).status).toBe(503);
    const metrics = await scrape(server.url);
    expect(metrics.sample("consistency_wait_seconds_count", { kind: "write", outcome: "timeout" })).toBe(1);
    expect(metrics.sample("consistency_wait_seconds_count", { kind: "read", outcome: "timeout" })).toBe(1);
    expect(metrics.sample("consistency_wait_seconds_sum", { kind: "read", outcome: "timeout" })).toBeGreaterThanOrEqual(
      0.04,
    );
    await server.internals.projector.start();
  });

  it("keeps each server's metrics its own", async () => {
    const other = await TestServer.start();
    try {
      const metrics = await scrape(other.url);
      expect(metrics.sample("consistency_wait_seconds_count", { outcome: "timeout" })).toBe(0);
    } finally {
      await other.stop();
    }
  });
});
