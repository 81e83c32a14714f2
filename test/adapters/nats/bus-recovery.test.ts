// What a running bus meets from the server under it, against a real nats-server: its JetStream state deleted
// (a volume recreated, an operator's cleanup), the server frozen rather than stopped (SIGSTOP: sockets open,
// nothing answers), and a group that subscribes while the server is away after the bus was ready once.
import { randomUUID } from "node:crypto";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NatsBus } from "../../../shared/adapters/nats/nats.bus.ts";
import { NatsRateLimitCounters } from "../../../shared/adapters/nats/nats-kv.rate-limit-counters.ts";
import type { BusMessage } from "../../../shared/bus/bus.port.ts";
import { capturedLogger } from "../../support/captured-logger.ts";
import { natsUnavailable, startNatsServer, type NatsServer } from "../../support/nats-server.ts";
import { until } from "../../support/poll.ts";

const unavailable = natsUnavailable();
if (unavailable) console.warn(`NATS bus recovery tests skipped: ${unavailable}`);

const message = (subject: string, n: number): BusMessage => ({ id: randomUUID(), subject, data: { n }, metadata: {} });

/** Publishes as the outbox publisher does: again after each failure, until it goes through or time runs out. */
async function publishWithRetries(bus: NatsBus, messages: readonly BusMessage[], withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await bus.publish(messages);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe.skipIf(unavailable !== null)("NATS bus recovery", () => {
  let server: NatsServer;
  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("recreates its streams when they are deleted under it, says so, and publishes and keeps its position again", async () => {
    const stream = `EVENTS_${randomUUID().slice(0, 8)}`;
    const subject = `Deleted${randomUUID().slice(0, 8)}`;
    const { logger, lines } = capturedLogger();
    const bus = await NatsBus.connect(server.url, { stream, subjectPrefix: `t.${stream}`, logger });
    try {
      await bus.publish([message(subject, 1)]);
      await bus.savePublishedPosition(7);
      const admin = await connect({ servers: server.url });
      const manager = await jetstreamManager(admin);
      await manager.streams.delete(stream);
      await manager.streams.delete(`${stream}_PUBLISHED`);
      await publishWithRetries(bus, [message(subject, 2)], 5_000);
      expect(bus.up).toBe(true);
      expect((await manager.streams.info(stream)).state.messages).toBe(1);
      expect(await bus.publishedPosition()).toBeNull();
      await bus.savePublishedPosition(8);
      expect(await bus.publishedPosition()).toBe(8);
      expect(lines.some((line) => line.event === "bus.state_recreated")).toBe(true);
      await admin.close();
    } finally {
      await bus.close();
    }
  });

  it("recreates the rate-limit bucket when it is deleted under it, and counts in it again", async () => {
    const bucket = `limits-${randomUUID().slice(0, 8)}`;
    const counters = await NatsRateLimitCounters.connect(server.url, {
      bucket,
      maxWindowSeconds: 60,
      breakerOpenMs: 100,
    });
    try {
      expect(await counters.increment("k", 60)).toBe(1);
      const admin = await connect({ servers: server.url });
      await (await jetstreamManager(admin)).streams.delete(`KV_${bucket}`);
      await admin.close();
      await counters.increment("k", 60);
      await until(
        async () => counters.up && (await counters.increment(`fresh-${randomUUID()}`, 60)) === 1 && counters.up,
        "the bucket recreated",
        10_000,
      );
      const again = await connect({ servers: server.url });
      expect((await (await jetstreamManager(again)).streams.info(`KV_${bucket}`)).state.messages).toBeGreaterThan(0);
      await again.close();
    } finally {
      await counters.close();
    }
  });

  it("joins a group that subscribed while NATS was away after the bus was ready once, when NATS returns", async () => {
    const subject = `Late${randomUUID().slice(0, 8)}`;
    const bus = await NatsBus.connect(server.url, {});
    const received: number[] = [];
    try {
      await server.pause();
      await until(() => !bus.up, "the bus to see NATS away");
      const subscription = await bus.subscribe({
        subjects: [subject],
        group: `late-${randomUUID()}`,
        handler: async (m) => void received.push((m.data as { n: number }).n),
      });
      await server.resume();
      await until(() => bus.up, "the bus to see NATS back");
      await publishWithRetries(bus, [message(subject, 1)], 5_000);
      await until(() => received.length === 1, "the late group to receive what was published", 10_000);
      await subscription.stop();
    } finally {
      await bus.close();
    }
  });

  it("sees a frozen server as down within seconds, without holding requests, and comes back when it thaws", async () => {
    const bus = await NatsBus.connect(server.url, {});
    const counters = await NatsRateLimitCounters.connect(server.url, {
      bucket: `frozen-${randomUUID().slice(0, 8)}`,
      maxWindowSeconds: 60,
    });
    try {
      server.freeze();
      const frozenAt = Date.now();
      await until(() => !bus.up && !counters.up, "the frozen server to be seen", 10_000);
      expect(Date.now() - frozenAt).toBeLessThan(8_000);
      // Once seen, a request that counts against a rate limit costs no wait for the server.
      const started = Date.now();
      for (let i = 0; i < 20; i += 1) await counters.increment("frozen", 60);
      expect(Date.now() - started).toBeLessThan(100);
      await expect(bus.publish([message("Frozen", 1)])).rejects.toThrow();
      server.thaw();
      await until(() => bus.up && counters.up, "the thawed server to be seen", 15_000);
      await publishWithRetries(bus, [message("Thawed", 1)], 5_000);
    } finally {
      server.thaw();
      await counters.close();
      await bus.close();
    }
  }, 40_000);
});
