// GET /metrics in the split deployment: the APIs serve it on their own port, the projector and the notifier,
// which have no HTTP port, on METRICS_PORT; each counts what it did itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSession } from "../../../shared/auth/session-verifier.ts";
import { freePort } from "../../../deploy/free-port.ts";
import { scrape, scrapeUntil } from "../../support/metrics.ts";
import { startServiceProcess, type ServiceProcess } from "../../support/processes.ts";
import { Client, TEST_SESSION_SECRET } from "../../support/server.ts";
import { startSplitServices, type SplitServices } from "../../support/split-services.ts";
import { createPage, share, unknownAddress } from "../../support/workspace-builders.ts";

describe("metrics of the split services", () => {
  let split: SplitServices;
  let notifier: ServiceProcess;
  let projectorMetrics: string;
  let notifierMetrics: string;
  beforeAll(async () => {
    const projectorPort = await freePort();
    const notifierPort = await freePort();
    projectorMetrics = `http://127.0.0.1:${projectorPort}`;
    notifierMetrics = `http://127.0.0.1:${notifierPort}`;
    // The APIs have a port of their own and ignore METRICS_PORT; only the projector takes this one.
    split = await startSplitServices({ env: { METRICS_PORT: String(projectorPort) } });
    notifier = await startServiceProcess("services/notifier/main.ts", {
      ...split.env,
      METRICS_PORT: String(notifierPort),
    });
  }, 120_000);
  afterAll(async () => {
    await notifier.stop();
    await split.stop();
  });

  it("follows a write and an invitation through every service", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "split@example.com",
      name: "Split",
    });
    const writer = new Client(split.commandApi.url, { cookie });
    const [queryNode] = split.queryApis;
    if (!queryNode) throw new Error("no query node");
    const reader = new Client(queryNode.url, { cookie });
    const pageId = await createPage(writer, { title: "Measured" });
    expect((await reader.get(`/pages/${pageId}`)).status).toBe(200);
    expect((await share(writer, "page", pageId, unknownAddress(), "view")).status).toBe(202);

    const command = await scrape(split.commandApi.url);
    expect(command.sample("events_appended_total", { type: "PageCreated" })).toBe(1);
    expect(
      command.sample("http_request_duration_seconds_count", { method: "POST", route: "/api/v1/pages", status: "201" }),
    ).toBe(1);
    const query = await scrape(queryNode.url);
    expect(
      query.sample("http_request_duration_seconds_count", {
        method: "GET",
        route: "/api/v1/pages/:pageId",
        status: "200",
      }),
    ).toBe(1);
    expect(query.sample("events_appended_total")).toBe(0);

    const projector = await scrapeUntil(
      projectorMetrics,
      (metrics) => metrics.sample("projector_events_total") > 0,
      "projected events",
    );
    expect(projector.sample("projector_position")).toBeGreaterThan(0);
    expect(projector.sample("process_resident_memory_bytes")).toBeGreaterThan(0);
    await scrapeUntil(
      notifierMetrics,
      (metrics) => metrics.sample("notifier_deliveries_total", { outcome: "sent" }) === 1,
      "a sent delivery",
    );
    const delivered = await scrape(notifierMetrics);
    expect(delivered.sample("events_appended_total", { type: "InvitationDelivered" })).toBe(1);
  });
});
