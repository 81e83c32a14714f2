// The bus contract against a real nats-server with JetStream, and what only a broker can show: durability
// across connections (processes) and the server's deduplication of a republish.
import { randomUUID } from "node:crypto";
import { jetstream } from "@nats-io/jetstream";
import { connect, headers } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NatsBus } from "../../../shared/adapters/nats/nats.bus.ts";
import type { BusMessage } from "../../../shared/bus/bus.port.ts";
import { busContract } from "../../contracts/bus.contract.ts";
import { natsUnavailable, startNatsServer, type NatsServer } from "../../support/nats-server.ts";
import { until } from "../../support/poll.ts";

const unavailable = natsUnavailable();
if (unavailable) console.warn(`NATS bus tests skipped: ${unavailable}`);

function traceHeaders(traceparent: string) {
  const set = headers();
  set.set("traceparent", traceparent);
  return set;
}

describe.skipIf(unavailable !== null)("NATS JetStream bus", () => {
  let server: NatsServer;
  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  busContract("NATS JetStream", async () => {
    const bus = await NatsBus.connect(server.url, { retryDelayMs: 20 });
    return { bus, cleanup: () => bus.close() };
  });

  const message = (subject: string, n: number): BusMessage => ({
    id: randomUUID(),
    subject,
    data: { n },
    metadata: {},
  });

  it("carries the trace context as a traceparent header, and hands a header's context to a consumer whose payload has none", async () => {
    const subject = `Traced${randomUUID().slice(0, 8)}`;
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const bus = await NatsBus.connect(server.url);
    const raw = await connect({ servers: server.url });
    try {
      const got: BusMessage[] = [];
      await bus.subscribe({ subjects: [subject], group: `g-${randomUUID()}`, handler: async (m) => void got.push(m) });
      const headersSeen: (string | undefined)[] = [];
      const watcher = raw.subscribe(`workspace.events.${subject}`, {
        callback: (_error, delivered) => void headersSeen.push(delivered.headers?.get("traceparent")),
      });
      const traced = message(subject, 1);
      await bus.publish([{ ...traced, metadata: { traceparent } }]);
      const headerOnly = message(subject, 2);
      await jetstream(raw).publish(
        `workspace.events.${subject}`,
        new TextEncoder().encode(JSON.stringify(headerOnly)),
        {
          msgID: headerOnly.id,
          headers: traceHeaders(traceparent),
        },
      );
      await until(() => got.length >= 2 && headersSeen.length >= 1, "both messages");
      watcher.unsubscribe();
      expect(headersSeen[0]).toBe(traceparent);
      expect(got.map((m) => m.metadata["traceparent"])).toEqual([traceparent, traceparent]);
    } finally {
      await raw.close();
      await bus.close();
    }
  });

  it("keeps a group's place across connections: what was published while no member ran reaches the next one", async () => {
    const subject = `Durable${randomUUID().slice(0, 8)}`;
    const group = `g-${randomUUID()}`;
    const got: unknown[] = [];
    const first = await NatsBus.connect(server.url);
    const subscription = await first.subscribe({
      subjects: [subject],
      group,
      handler: async (m) => void got.push(m.data),
    });
    await first.publish([message(subject, 1)]);
    await until(() => got.length === 1, "the first message");
    await subscription.stop();
    await first.close();

    const publisher = await NatsBus.connect(server.url);
    await publisher.publish([message(subject, 2), message(subject, 3)]);
    await publisher.close();

    const second = await NatsBus.connect(server.url);
    await second.subscribe({ subjects: [subject], group, handler: async (m) => void got.push(m.data) });
    await until(() => got.length === 3, "what was published meanwhile");
    expect(got).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    await second.close();
  });

  it("drops a republish of the same message id, even from another connection after a restart of the server", async () => {
    const subject = `Dedup${randomUUID().slice(0, 8)}`;
    const got: unknown[] = [];
    const reader = await NatsBus.connect(server.url);
    await reader.subscribe({
      subjects: [subject],
      group: `g-${randomUUID()}`,
      handler: async (m) => void got.push(m.data),
    });
    const once = message(subject, 1);
    const writer = await NatsBus.connect(server.url);
    await writer.publish([once]);
    await writer.close();
    await server.restart();
    const again = await NatsBus.connect(server.url);
    await again.publish([once, message(subject, 2)]);
    await again.close();
    await until(() => got.length >= 2, "both messages");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(got).toEqual([{ n: 1 }, { n: 2 }]);
    await reader.close();
  });
});
