// The change feed through the split deployment: nginx in front, the feed served by a query node, which has no
// event-store connection and follows the read models the projector process writes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSession } from "../../../shared/auth/session-verifier.ts";
import { gatewayUnavailable, type Gateway } from "../../support/gateway.ts";
import { Client, TEST_SESSION_SECRET } from "../../support/server.ts";
import { startSplitBehindGateway, type SplitServices } from "../../support/split-services.ts";
import { SseStream } from "../../support/sse.ts";

const unavailable = gatewayUnavailable();
if (unavailable) console.warn(`change feed gateway tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("the change feed through the nginx gateway", () => {
  let split: SplitServices;
  let gateway: Gateway;
  beforeAll(async () => {
    ({ split, gateway } = await startSplitBehindGateway({ queryNodes: 1, env: { CHANGE_FEED_HEARTBEAT_MS: "300" } }));
  }, 120_000);
  afterAll(async () => {
    await gateway?.stop();
    await split?.stop();
  });

  it("delivers changes as they happen, with heartbeats, and resumes after Last-Event-ID", async () => {
    const credentials = {
      cookie: await mintSession(TEST_SESSION_SECRET, {
        sub: crypto.randomUUID(),
        email: "feed@example.com",
        name: "Feed",
      }),
    };
    const user = new Client(gateway.url, credentials);
    expect((await user.get("/me")).status).toBe(200);
    const stream = await SseStream.open(`${gateway.url}/api/v1/changes`, credentials);
    try {
      expect(stream.status).toBe(200);
      const page = await user.post("/pages", { title: "Through nginx" });
      expect(page.status).toBe(201);
      await stream.until(() => stream.changes().length === 1, 10_000);
      expect(stream.changes()[0]).toMatchObject({ type: "PageCreated", entity: { id: page.body.id } });
      expect(stream.events[0]?.id).toBe(page.headers.get("x-consistency-token"));
      await stream.until(() => stream.comments.filter((line) => line === "heartbeat").length >= 2, 10_000);
    } finally {
      stream.close();
    }
    const lastId = stream.events[0]?.id ?? "";
    await user.patch(`/pages/${pageIdOf(stream)}`, { title: "Renamed while away" });
    const resumed = await SseStream.open(`${gateway.url}/api/v1/changes`, credentials, { "last-event-id": lastId });
    try {
      await resumed.until(() => resumed.changes().length === 1, 10_000);
      expect(resumed.changes()[0]).toMatchObject({
        type: "PageRenamed",
        changes: { kind: "title", to: "Renamed while away" },
      });
    } finally {
      resumed.close();
    }
  });
});

const pageIdOf = (stream: SseStream): string => stream.changes()[0]?.entity.id ?? "";
