// Every service starts and serves while NATS is down, and catches up once it answers. A real nats-server is
// stopped before the services start (its port and store kept); the split services run as separate processes
// and the all-in-one server in this one. While it is down: writes answer 201 and are read back from a query
// node, /readyz says the bus is down; once it is started: the integration events of those writes reach a
// consumer group once each, the notifier (which started without NATS) sends the invitation mail once, and
// /readyz and the metrics say the bus is up.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NatsBus } from "../../shared/adapters/nats/nats.bus.ts";
import { mintSession } from "../../shared/auth/session-verifier.ts";
import type { BusMessage } from "../../shared/bus/bus.port.ts";
import { natsUnavailable, startNatsServer, type NatsServer } from "../support/nats-server.ts";
import { Client, TEST_SESSION_SECRET, TestServer } from "../support/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server.ts";
import { startSplitServices, type SplitServices } from "../support/split-services.ts";
import { until } from "../support/poll.ts";

const unavailable = natsUnavailable();
if (unavailable) console.warn(`NATS-down-at-start tests skipped: ${unavailable}`);

const readiness = async (url: string) => {
  const answer = await fetch(`${url}/readyz`);
  return { status: answer.status, body: (await answer.json()) as { status?: string; dependencies?: { bus?: string } } };
};

const pageIdOf = (message: BusMessage) => (message.data as { pageId?: string }).pageId;

describe.skipIf(unavailable !== null)("services started while NATS is down", () => {
  let nats: NatsServer;
  let smtp: TestSmtpServer;
  let split: SplitServices;
  let observer: NatsBus;
  const received: BusMessage[] = [];

  beforeAll(async () => {
    nats = await startNatsServer();
    await nats.pause();
    smtp = await startSmtpServer();
    split = await startSplitServices({
      notifiers: 1,
      env: { NATS_URL: nats.url, SMTP_URL: smtp.url, CONSISTENCY_WAIT_MS: "5000" },
    });
    // A consumer group that joins while NATS is down too: it receives what is published from the moment it asked.
    observer = NatsBus.open(nats.url, { name: "observer" });
    await observer.subscribe({
      subjects: ["PageCreated"],
      group: `observer-${randomUUID()}`,
      handler: async (message) => void received.push(message),
    });
  }, 240_000);
  afterAll(async () => {
    await observer?.close();
    await split?.stop();
    await smtp?.close();
    await nats?.stop();
  });

  it("starts each service, serves writes and reads, and publishes each event once when NATS returns", async () => {
    for (const url of [split.commandApi.url, ...split.queryApis.map((node) => node.url)]) {
      const ready = await readiness(url);
      expect(ready.status).toBe(200);
      expect(ready.body.dependencies).toEqual({ bus: "down" });
    }
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: randomUUID(),
      email: "olive@example.com",
      name: "Olive",
    });
    const writer = new Client(split.commandApi.url, { cookie });
    const reader = new Client(split.queryApis[0]?.url ?? "", { cookie });
    expect((await reader.get("/me")).status).toBe(200);
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const created = await writer.post("/pages", { title: `Written with NATS down ${n}` });
      // 201: the projector, started without NATS, projected the write before it answered.
      expect(created.status).toBe(201);
      ids.push(String(created.body.id));
      const read = await reader.get(`/pages/${String(created.body.id)}`, {
        "x-consistency-token": created.headers.get("x-consistency-token") ?? "",
      });
      expect(read.status).toBe(200);
    }
    const shared = await writer.post(`/shares/entity/page/${ids[0] ?? ""}/grants`, {
      email: "ivy@example.com",
      permission: "view",
    });
    expect(shared.status).toBe(202);
    expect(received).toEqual([]);
    expect(smtp.delivered()).toEqual([]);

    await nats.resume();
    await until(
      async () => received.filter((message) => ids.includes(pageIdOf(message) ?? "")).length,
      (count) => count >= ids.length,
      "the integration events",
      60_000,
    );
    await until(
      async () => smtp.delivered().filter((mail) => mail.to === "ivy@example.com").length,
      (count) => count >= 1,
      "the invitation mail",
      60_000,
    );
    for (const url of [split.commandApi.url, ...split.queryApis.map((node) => node.url)]) {
      await until(
        async () => (await readiness(url)).body.dependencies?.bus,
        (bus) => bus === "up",
        `${url} seeing the bus up`,
        60_000,
      );
    }
    const metrics = await (await fetch(`${split.commandApi.url}/metrics`)).text();
    expect(metrics).toMatch(/^dependency_up\{dependency="bus"\} 1$/m);
    // Once each, in the order written: no event is published twice for the outage.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(received.filter((message) => ids.includes(pageIdOf(message) ?? "")).map(pageIdOf)).toEqual(ids);
    expect(smtp.delivered().filter((mail) => mail.to === "ivy@example.com")).toHaveLength(1);
  });
});

describe.skipIf(unavailable !== null)("the all-in-one server started while NATS is down", () => {
  it("serves writes and reads, says the bus is down, and publishes once NATS answers", async () => {
    const nats = await startNatsServer();
    await nats.pause();
    const server = await TestServer.start({ settings: { NATS_URL: nats.url } });
    const observer = NatsBus.open(nats.url, { name: "observer" });
    const received: BusMessage[] = [];
    try {
      await observer.subscribe({
        subjects: ["PageCreated"],
        group: `observer-${randomUUID()}`,
        handler: async (message) => void received.push(message),
      });
      const ready = await readiness(server.url);
      expect(ready.status).toBe(200);
      expect(ready.body.dependencies).toEqual({ bus: "down" });
      const ann = await server.registered("ann");
      const created = await ann.post("/pages", { title: "All in one, NATS down" });
      expect(created.status).toBe(201);
      expect((await ann.get(`/pages/${String(created.body.id)}`)).status).toBe(200);
      await nats.resume();
      await until(
        async () => received.filter((message) => pageIdOf(message) === created.body.id).length,
        (count) => count === 1,
        "the integration event",
        60_000,
      );
      await until(
        async () => (await readiness(server.url)).body.dependencies?.bus,
        (bus) => bus === "up",
        "the bus up",
        60_000,
      );
    } finally {
      await observer.close();
      await server.stop();
      await nats.stop();
    }
  }, 120_000);
});
