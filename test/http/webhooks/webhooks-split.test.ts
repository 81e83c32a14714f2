// The split deployment over NATS delivers webhooks from its notifier, and a notifier SIGKILLed between sending a
// delivery and recording it leaves the delivery to be sent again, with the same webhook-id, once its lease ends.
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSession } from "../../../shared/auth/session-verifier.ts";
import { natsUnavailable, startNatsServer, type NatsServer } from "../../support/nats-server.ts";
import { Client, TEST_SESSION_SECRET } from "../../support/server.ts";
import { startSplitServices, type SplitServices } from "../../support/split-services.ts";
import { verifyStandardWebhook, WebhookReceiver } from "../../support/webhook-receiver.ts";
import { until } from "../../support/poll.ts";

const unavailable = natsUnavailable();

describe.skipIf(unavailable !== null)("webhooks in the split deployment", () => {
  let nats: NatsServer;
  let split: SplitServices;
  beforeAll(async () => {
    nats = await startNatsServer();
    split = await startSplitServices({
      notifiers: 1,
      env: { NATS_URL: nats.url, WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", WEBHOOK_LEASE_MS: "1000" },
    });
  }, 120_000);
  afterAll(async () => {
    await split?.stop();
    await nats?.stop();
  });

  it("a notifier killed after sending and before recording: the delivery is sent again with the same webhook-id", async () => {
    const [notifier] = split.notifiers;
    const [queryApi] = split.queryApis;
    if (!notifier || !queryApi) throw new Error("split services not started");
    const killed = once(notifier.child, "exit");
    const endpoint = await WebhookReceiver.start(async (_received, index) => {
      if (index === 0) {
        notifier.child.kill("SIGKILL");
        await killed;
      }
      return 200;
    });
    try {
      const cookie = await mintSession(TEST_SESSION_SECRET, {
        sub: crypto.randomUUID(),
        email: "hooks@example.com",
        name: "Hooks",
      });
      const writer = new Client(split.commandApi.url, { cookie });
      const reader = new Client(queryApi.url, { cookie });
      expect((await reader.get("/me")).status).toBe(200);
      const created = await writer.post("/webhooks", { url: endpoint.url, events: ["page.created"] });
      expect(created.status).toBe(201);
      const page = await writer.post("/pages", { title: "crash" });
      expect(page.status).toBe(201);
      await endpoint.waitFor(1);
      await killed;
      await split.start("notifier");
      const [first, second] = await endpoint.waitFor(2, 60_000);
      expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
      expect(second?.body).toBe(first?.body);
      if (second) expect(verifyStandardWebhook(String(created.body.secret), second.headers, second.body)).toBe(true);
      const log = await until(
        async () =>
          (await reader.get(`/webhooks/${String(created.body.id)}/deliveries`)).body.data as {
            status: string;
            attempts: number;
          }[],
        (rows) => rows[0]?.status === "delivered",
      );
      expect(log).toEqual([expect.objectContaining({ status: "delivered", attempts: 1 })]);
    } finally {
      await endpoint.stop();
    }
  }, 120_000);
});
