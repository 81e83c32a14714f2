// The event-store contract on a real EventStoreDB (EVENTSTORE_URL, or a container when a runtime answers), plain
// and inside a namespace; and what a namespace keeps apart on one server.
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { KurrentDBClient } from "@kurrent/kurrentdb-client";
import { EventStoreDbEventStore, StreamNames } from "../../../shared/adapters/eventstoredb/eventstoredb.event-store.ts";
import { eventStoreContract, newEvent } from "../../contracts/event-store.contract.ts";
import { eventStoreDbServer, reportSkip } from "../../support/production-servers.ts";

const server = await eventStoreDbServer();
const skipped = reportSkip("EventStoreDB adapter contract", server);
afterAll(async () => {
  if (!("skip" in server)) await server.stop();
});

describe.skipIf(skipped)("EventStoreDB", () => {
  if ("skip" in server) return;
  // Streams in the contract are random per test, so one server serves every test.
  // A tombstone made with the client directly, as an operator's tool would: the port has no deletion.
  const tombstoner = KurrentDBClient.connectionString(server.url);
  afterAll(() => tombstoner.dispose());

  eventStoreContract("EventStoreDB", async () => {
    const store = EventStoreDbEventStore.connect(server.url);
    return {
      store,
      cleanup: () => store.close(),
      tombstone: async (stream) => void (await tombstoner.tombstoneStream(stream)),
    };
  });

  eventStoreContract("EventStoreDB in a namespace", async () => {
    const namespace = `ns-${randomUUID()}`;
    const store = EventStoreDbEventStore.connect(server.url, { namespace });
    const names = new StreamNames(namespace);
    return {
      store,
      cleanup: () => store.close(),
      tombstone: async (stream) => void (await tombstoner.tombstoneStream(names.stored(stream))),
    };
  });

  it("shows each namespace its own streams only, in its global log and by name", async () => {
    const first = EventStoreDbEventStore.connect(server.url, { namespace: `a-${randomUUID()}` });
    const second = EventStoreDbEventStore.connect(server.url, { namespace: `b-${randomUUID()}` });
    try {
      await first.append("page-1", [newEvent()], "no_stream");
      await second.append("page-1", [newEvent(), newEvent()], "no_stream");
      expect((await first.read("page-1")).revision).toBe(0);
      expect((await second.read("page-1")).revision).toBe(1);
      expect((await first.readAll(0, 100)).map((event) => event.stream)).toEqual(["page-1"]);
      expect((await second.readAll(0, 100)).map((event) => event.stream)).toEqual(["page-1", "page-1"]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
