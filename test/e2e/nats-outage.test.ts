// NATS down during writes: the read side keeps up (writes answer as usual and are read back at once), and once
// NATS is back the bus receives every event it missed, ids only. A real nats-server, stopped and started again.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NatsBus } from "../../shared/adapters/nats/nats.bus.ts";
import type { BusMessage } from "../../shared/bus/bus.port.ts";
import { natsUnavailable, startNatsServer, type NatsServer } from "../support/nats-server.ts";
import { TestServer } from "../support/server.ts";

const unavailable = natsUnavailable();
if (unavailable) console.warn(`NATS outage test skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("a NATS outage", () => {
  let nats: NatsServer;
  let server: TestServer;
  let observer: NatsBus;
  const received: BusMessage[] = [];

  beforeAll(async () => {
    nats = await startNatsServer();
    server = await TestServer.start({ settings: { NATS_URL: nats.url, CONSISTENCY_WAIT_MS: "2000" } });
    observer = await NatsBus.connect(nats.url, { name: "observer" });
    await observer.subscribe({
      subjects: ["PageCreated"],
      group: `observer-${randomUUID()}`,
      handler: async (message) => void received.push(message),
    });
  });
  afterAll(async () => {
    await observer?.close();
    await server?.stop();
    await nats?.stop();
  });

  it("holds back neither writes nor reads, and the bus catches up when NATS returns", async () => {
    const ann = await server.registered("ann");
    await nats.pause();
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const created = await ann.post("/pages", { title: `Written while NATS is down ${n}`, markdown: "private words" });
      // 201, not 202: the read models reached the write before it answered.
      expect(created.status).toBe(201);
      ids.push(String(created.body.id));
    }
    const listed = await ann.get("/pages");
    expect((listed.body.data as Array<{ id: string }>).map((page) => page.id).sort()).toEqual([...ids].sort());

    await nats.resume();
    const deadline = Date.now() + 30_000;
    while (ids.some((id) => !received.some((message) => (message.data as { pageId?: string }).pageId === id))) {
      if (Date.now() > deadline) throw new Error(`the bus did not catch up: ${received.length} messages`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const missed = received.filter((message) => ids.includes(String((message.data as { pageId?: string }).pageId)));
    expect(missed.map((message) => (message.data as { pageId: string }).pageId)).toEqual(ids);
    expect(JSON.stringify(missed)).not.toContain("private words");
    expect(JSON.stringify(missed)).not.toContain("Written while");
  });
});
