// Traces in the all-in-one process, read from a real OTLP/HTTP receiver: one write is one trace from the request
// through the append, the projection and the webhook's delivery (whose receiver gets the trace in `traceparent`);
// with the OTEL_* variables unset nothing is exported and no event carries a trace context.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tracing } from "../../shared/tracing/tracing.port.ts";
import { OtlpReceiver, traceIdOf, type ReceivedSpan } from "../support/otlp-receiver.ts";
import { TestServer } from "../support/server.ts";
import { receiversForFile } from "../support/webhook-receiver.ts";

const hooks = receiversForFile();
let collector: OtlpReceiver;
beforeAll(async () => {
  collector = await OtlpReceiver.start();
});
afterAll(async () => {
  await collector.stop();
});

const newTraceparent = () => `00-${randomBytes(16).toString("hex")}-${randomBytes(8).toString("hex")}-01`;
const named = (spans: readonly ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);

/** Writes a page with a webhook listening, under a trace the caller (a gateway) started. */
async function tracedWrite(server: TestServer) {
  const endpoint = await hooks();
  const owner = await server.registered("owner");
  expect((await owner.post("/webhooks", { url: endpoint.url, events: ["page.created"] })).status).toBe(201);
  const traceparent = newTraceparent();
  const created = await owner.call("POST", "/pages", {
    json: { title: "traced", markdown: "hello", parentId: null },
    headers: { traceparent },
  });
  expect(created.status).toBe(201);
  const [delivery] = await endpoint.waitFor(1);
  const events = await server.internals.eventStore.readAll(0, 1_000);
  const pageCreated = events.find((event) => event.type === "PageCreated");
  return { traceparent, delivery, pageCreated };
}

describe("with the OTEL_* variables unset", () => {
  it("exports nothing and adds no trace context to events or webhook requests", async () => {
    const server = await TestServer.start({ settings: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" } });
    try {
      expect(tracing().enabled).toBe(false);
      const { delivery, pageCreated } = await tracedWrite(server);
      expect(pageCreated?.metadata.traceparent).toBeUndefined();
      expect(delivery?.headers.traceparent).toBeUndefined();
      expect(collector.spans).toEqual([]);
      expect(collector.refused).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

describe("with OTEL_EXPORTER_OTLP_ENDPOINT set", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start({
      settings: {
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: "20",
      },
    });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("makes one write one trace: request, append, projection and webhook delivery, and the receiver continues it", async () => {
    const { traceparent, delivery, pageCreated } = await tracedWrite(server);
    const traceId = traceIdOf(traceparent);
    expect(traceIdOf(String(pageCreated?.metadata.traceparent))).toBe(traceId);
    expect(traceIdOf(String(delivery?.headers.traceparent))).toBe(traceId);

    const spans = await collector.trace(traceId, (found) =>
      [
        "POST /api/v1/pages",
        "event_store.append",
        "consistency.wait",
        "projector.batch",
        "read_store.transaction",
        "webhook.deliver",
      ].every((name) => named(found, name).length > 0),
    );
    const [request] = named(spans, "POST /api/v1/pages");
    // The request continues the caller's span; every other span hangs off a span of the same trace.
    expect(request?.parentSpanId).toBe(traceparent.split("-")[2]);
    expect(request?.attributes["http.route"]).toBe("/api/v1/pages");
    const ids = new Set(spans.map((span) => span.spanId));
    for (const span of spans.filter((one) => one !== request)) expect(ids).toContain(span.parentSpanId);
    // The webhook's request names the delivery span as its parent.
    const [deliver] = named(spans, "webhook.deliver");
    expect(String(delivery?.headers.traceparent).split("-")[2]).toBe(deliver?.spanId);
    expect(spans.every((span) => span.service === "workspace-all-in-one")).toBe(true);
  });

  it("starts a trace of its own for a request that brings none", async () => {
    const owner = await server.registered("writer");
    expect((await owner.post("/pages", { title: "untraced", markdown: "hi", parentId: null })).status).toBe(201);
    const events = await server.internals.eventStore.readAll(0, 1_000);
    const pageCreated = events.filter((event) => event.type === "PageCreated").at(-1);
    const traceId = traceIdOf(String(pageCreated?.metadata.traceparent));
    const spans = await collector.trace(traceId, (found) => named(found, "projector.batch").length > 0);
    expect(named(spans, "POST /api/v1/pages")[0]?.parentSpanId).toBe("");
  });
});
