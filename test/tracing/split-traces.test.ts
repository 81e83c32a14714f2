// Traces across the split deployment: nginx in front of the command API and a query node, a projector and a
// notifier as separate processes over a real nats-server, each exporting to one real OTLP/HTTP receiver. One
// write through the gateway is one trace across the processes, down to the webhook's receiver.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSession } from "../../shared/auth/session-verifier.ts";
import { gatewayUnavailable } from "../support/gateway.ts";
import { natsUnavailable, startNatsServer, type NatsServer } from "../support/nats-server.ts";
import { OtlpReceiver, traceIdOf, type ReceivedSpan } from "../support/otlp-receiver.ts";
import { Client, TEST_SESSION_SECRET } from "../support/server.ts";
import { startSplitBehindGateway, type GatewayedSplit } from "../support/split-services.ts";
import { WebhookReceiver } from "../support/webhook-receiver.ts";

const unavailable = gatewayUnavailable() ?? natsUnavailable();
if (unavailable) console.warn(`split tracing tests skipped: ${unavailable}`);

const has = (spans: readonly ReceivedSpan[], service: string, name: string) =>
  spans.some((span) => span.service === `workspace-${service}` && span.name === name);

describe.skipIf(unavailable !== null)("traces across the split services", () => {
  let collector: OtlpReceiver;
  let hooks: WebhookReceiver;
  let nats: NatsServer;
  let deployment: GatewayedSplit;

  beforeAll(async () => {
    collector = await OtlpReceiver.start();
    hooks = await WebhookReceiver.start();
    nats = await startNatsServer();
    deployment = await startSplitBehindGateway({
      notifiers: 1,
      env: {
        NATS_URL: nats.url,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: "20",
      },
    });
  }, 180_000);
  afterAll(async () => {
    await deployment?.stop();
    await nats?.stop();
    await hooks?.stop();
    await collector?.stop();
  });

  it("carries one trace id from the gateway through the command API, the projector and the notifier to the webhook's receiver, and into the query node", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "tracer@example.com",
      name: "Tracer",
    });
    const owner = new Client(deployment.gateway.url, { cookie });
    expect((await owner.get("/me")).status).toBe(200);
    expect((await owner.post("/webhooks", { url: hooks.url, events: ["page.created"] })).status).toBe(201);

    const traceparent = `00-${randomBytes(16).toString("hex")}-${randomBytes(8).toString("hex")}-01`;
    const traceId = traceIdOf(traceparent);
    const created = await owner.call("POST", "/pages", {
      json: { title: "traced across", markdown: "hello", parentId: null },
      headers: { traceparent },
    });
    expect(created.status).toBe(201);
    const read = await owner.call("GET", `/pages/${String(created.body.id)}`, {
      headers: { traceparent, "x-consistency-token": created.headers.get("x-consistency-token") ?? "" },
    });
    expect(read.status).toBe(200);

    const [delivery] = await hooks.waitFor(1);
    expect(traceIdOf(String(delivery?.headers.traceparent))).toBe(traceId);
    const spans = await collector.trace(
      traceId,
      (found) =>
        has(found, "command-api", "POST /api/v1/pages") &&
        has(found, "command-api", "event_store.append") &&
        has(found, "projector", "projector.batch") &&
        has(found, "projector", "bus.publish") &&
        has(found, "notifier", "webhook.deliver") &&
        has(found, "query-api", "GET /api/v1/pages/:pageId"),
      30_000,
    );
    // The gateway passed the caller's context through: both API spans continue the caller's span.
    const callerSpan = traceparent.split("-")[2];
    for (const name of ["POST /api/v1/pages", "GET /api/v1/pages/:pageId"])
      expect(spans.find((span) => span.name === name)?.parentSpanId).toBe(callerSpan);
    const deliver = spans.find((span) => span.name === "webhook.deliver");
    expect(String(delivery?.headers.traceparent).split("-")[2]).toBe(deliver?.spanId);
  }, 90_000);
});
