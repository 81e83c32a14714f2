// A message on the stream that no consumer can read (not JSON, or JSON of another shape) is acknowledged,
// logged and counted by the notifier process, which goes on with the messages after it. Real nats-server, the
// real notifier process.
import { randomUUID } from "node:crypto";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../deploy/free-port.ts";
import { natsUnavailable, startNatsServer, type NatsServer } from "../support/nats-server.ts";
import { scrapeUntil } from "../support/metrics.ts";
import { startServiceProcess, type ServiceProcess } from "../support/processes.ts";
import { TEST_SESSION_SECRET } from "../support/server.ts";
import { tempDir } from "../support/temp-dir.ts";
import { until } from "../support/poll.ts";

const unavailable = natsUnavailable();
if (unavailable) console.warn(`notifier malformed-message test skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("the notifier on NATS", () => {
  let server: NatsServer;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let notifier: ServiceProcess;
  let connection: NatsConnection;
  let metricsUrl: string;

  beforeAll(async () => {
    server = await startNatsServer();
    dir = await tempDir();
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}`;
    notifier = await startServiceProcess("services/notifier/main.ts", {
      NATS_URL: server.url,
      DATA_DIR: dir.path,
      METRICS_PORT: String(port),
      HOST: "127.0.0.1",
      AUTH_SESSION_SECRET: TEST_SESSION_SECRET,
    });
    connection = await connect({ servers: server.url });
    // The notifier joins the bus in the background (it starts without it): publish once its consumer exists, or
    // the messages would come before it (a new consumer starts from when it asked).
    const manager = await jetstreamManager(connection);
    await until(async () => {
      const consumers = await manager.consumers
        .list("WORKSPACE_EVENTS")
        .next()
        .catch(() => []);
      return consumers.length > 0;
    }, "the notifier's consumer on the bus");
  });
  afterAll(async () => {
    await connection?.close();
    await notifier?.stop();
    await server?.stop();
    await dir?.remove();
  });

  it("acknowledges, logs and counts a malformed message, keeps running, and handles the next one", async () => {
    let output = "";
    notifier.child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const js = jetstream(connection);
    await js.publish("workspace.events.InvitationQueued", new TextEncoder().encode("{not json"), {
      msgID: randomUUID(),
    });
    await js.publish("workspace.events.InvitationQueued", new TextEncoder().encode(JSON.stringify({ id: 42 })), {
      msgID: randomUUID(),
    });
    // A well-formed message about an invitation nobody queued: the notifier reads it and finds nothing owed.
    const wellFormed = {
      id: randomUUID(),
      subject: "InvitationQueued",
      data: { invitationId: randomUUID() },
      metadata: {},
    };
    await js.publish("workspace.events.InvitationQueued", new TextEncoder().encode(JSON.stringify(wellFormed)), {
      msgID: wellFormed.id,
    });

    const metrics = await scrapeUntil(
      metricsUrl,
      (scraped) => scraped.sample("notifier_deliveries_total", { outcome: "not_owed" }) === 1,
      "the well-formed message after the malformed ones",
    );
    expect(metrics.sample("bus_malformed_messages_total", { group: "notifier" })).toBe(2);
    expect(notifier.child.exitCode).toBeNull();
    expect(output).toContain('"event":"bus.malformed_message"');

    // Acknowledged: nothing left pending or awaiting an ack, so nothing comes back after a restart.
    const manager = await jetstreamManager(connection);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const consumer = await manager.consumers.info("WORKSPACE_EVENTS", "notifier");
      if (consumer.num_ack_pending === 0 && consumer.num_pending === 0) break;
      if (Date.now() > deadline)
        throw new Error(
          `messages left unacknowledged: ${JSON.stringify({ pending: consumer.num_pending, ackPending: consumer.num_ack_pending })}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
});
