// The event-store contract on a real EventStoreDB: EVENTSTORE_URL, or a container when a runtime answers.
import { afterAll, describe } from "vitest";
import { EventStoreDbEventStore } from "../../../shared/adapters/eventstoredb/eventstoredb.event-store.ts";
import { eventStoreContract } from "../../contracts/event-store.contract.ts";
import { eventStoreDbServer, reportSkip } from "../../support/production-servers.ts";

const server = await eventStoreDbServer();
const skipped = reportSkip("EventStoreDB adapter contract", server);
afterAll(async () => {
  if (!("skip" in server)) await server.stop();
});

describe.skipIf(skipped)("EventStoreDB", () => {
  if ("skip" in server) return;
  // Streams in the contract are random per test, so one server serves every test.
  eventStoreContract("EventStoreDB", async () => {
    const store = EventStoreDbEventStore.connect(server.url);
    return { store, cleanup: () => store.close() };
  });
});
