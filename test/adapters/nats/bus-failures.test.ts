// What a consumer group meets over time, against a real nats-server: a message its handler always fails (a
// poison message) is logged and counted at each failure, delivered at most the cap, then parked with an
// alert; and a group whose subjects change between releases receives the new subjects, keeping its place.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NatsBus } from "../../../shared/adapters/nats/nats.bus.ts";
import { PrometheusMetrics } from "../../../shared/adapters/prometheus/prometheus.metrics.ts";
import type { BusMessage } from "../../../shared/bus/bus.port.ts";
import { capturedLogger } from "../../support/captured-logger.ts";
import { natsUnavailable, startNatsServer, type NatsServer } from "../../support/nats-server.ts";
import { until } from "../../support/poll.ts";

const unavailable = natsUnavailable();
if (unavailable) console.warn(`NATS bus failure tests skipped: ${unavailable}`);

const message = (subject: string, n: number): BusMessage => ({ id: randomUUID(), subject, data: { n }, metadata: {} });

describe.skipIf(unavailable !== null)("NATS bus failures", () => {
  let server: NatsServer;
  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("logs and counts each failure of a poison message, delivers it at most the cap, then parks it with an alert", async () => {
    const subject = `Poison${randomUUID().slice(0, 8)}`;
    const group = `g-${randomUUID()}`;
    const { logger, lines } = capturedLogger();
    const metrics = new PrometheusMetrics();
    const bus = await NatsBus.connect(server.url, { retryDelayMs: 20, maxDeliver: 3, logger, metrics });
    const attempts: number[] = [];
    const handled: number[] = [];
    await bus.subscribe({
      subjects: [subject],
      group,
      handler: async (received) => {
        const { n } = received.data as { n: number };
        if (n === 1) {
          attempts.push(n);
          throw new Error("this handler cannot take it");
        }
        handled.push(n);
      },
    });
    await bus.publish([message(subject, 1), message(subject, 2)]);
    await until(() => lines.some((line) => line.event === "bus.message_parked"), "the message parked");
    await until(() => handled.length === 1, "the next message");
    // Well past the retry delay: a parked message does not come back.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(attempts).toHaveLength(3);
    const failures = lines.filter((line) => line.event === "bus.handler_failed");
    expect(failures.map((line) => line.deliveries)).toEqual([1, 2]);
    expect(failures[0]).toMatchObject({ group, subject, reason: "this handler cannot take it", maxDeliver: 3 });
    const parked = lines.filter((line) => line.event === "bus.message_parked");
    expect(parked).toEqual([expect.objectContaining({ group, subject, deliveries: 3, level: 50 })]);
    const exposition = (await metrics.exposition()).body;
    expect(exposition).toContain(`bus_handler_failures_total{group="${group}"} 3`);
    expect(exposition).toContain(`bus_parked_messages_total{group="${group}"} 1`);
    await bus.close();
  });

  it("updates a group's consumer when its subjects change, keeping its place", async () => {
    const tag = randomUUID().slice(0, 8);
    const [old, added] = [`Old${tag}`, `Added${tag}`];
    const group = `g-${randomUUID()}`;
    const got: unknown[] = [];
    const handler = async (received: BusMessage) =>
      void got.push({ subject: received.subject, ...(received.data as object) });

    const before = await NatsBus.connect(server.url);
    const subscription = await before.subscribe({ subjects: [old], group, handler });
    await before.publish([message(old, 1)]);
    await until(() => got.length === 1, "the first message");
    await subscription.stop();
    await before.close();

    // Published while no member ran: the old subject's message is the group's to receive, the new subject's too
    // once the group asks for it.
    const publisher = await NatsBus.connect(server.url);
    await publisher.publish([message(old, 2), message(added, 3)]);

    const after = await NatsBus.connect(server.url);
    await after.subscribe({ subjects: [old, added], group, handler });
    await publisher.publish([message(added, 4)]);
    await until(() => got.length === 4, `the messages of both subjects: ${JSON.stringify(got)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(got).toEqual([
      { subject: old, n: 1 },
      { subject: old, n: 2 },
      { subject: added, n: 3 },
      { subject: added, n: 4 },
    ]);
    await after.close();

    // And from two subjects back to one other: the filter narrows to it.
    const narrowed = await NatsBus.connect(server.url);
    const only: unknown[] = [];
    await narrowed.subscribe({ subjects: [added], group, handler: async (received) => void only.push(received.data) });
    await publisher.publish([message(old, 5), message(added, 6)]);
    await until(() => only.length === 1, "the remaining subject's message");
    expect(only).toEqual([{ n: 6 }]);
    await narrowed.close();
    await publisher.close();
  });
});
