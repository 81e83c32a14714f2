// /readyz counts how far the read models are behind by reading the log after their checkpoint: bounded by bytes
// as well as by count, so an unauthenticated probe never loads a thousand events near the size of one change.
import pino from "pino";
import { afterEach, expect, it } from "vitest";
import type { EventStore, RecordedEvent } from "../../../shared/event-store/event-store.port.ts";
import { createApp, type App } from "../../../shared/http/create-app.ts";
import { healthRoutes, READY_MAX_BYTES } from "../../../shared/http/health.routes.ts";
import { newEvent } from "../../contracts/event-store.contract.ts";

let app: App | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

/** A log of `count` events of about a megabyte after position 0, that records how it is read. */
function largeLog(count: number) {
  const calls: Array<{ limit: number; maxBytes: number | undefined }> = [];
  const events: RecordedEvent[] = Array.from({ length: count }, (_, index) => ({
    ...newEvent("ThingHappened", { text: "x".repeat(1_000_000) }),
    stream: "s",
    revision: index,
    position: index + 1,
  }));
  const store: Pick<EventStore, "readAll" | "headPosition"> = {
    async readAll(after, limit, maxBytes) {
      calls.push({ limit, maxBytes });
      const read: RecordedEvent[] = [];
      let bytes = 0;
      for (const event of events.filter((e) => e.position > after).slice(0, limit)) {
        bytes += JSON.stringify(event.data).length;
        if (maxBytes !== undefined && read.length > 0 && bytes > maxBytes) break;
        read.push(event);
      }
      return read;
    },
    headPosition: async () => count,
  };
  return { store, calls };
}

async function readyz(eventStore: Pick<EventStore, "readAll" | "headPosition">) {
  app = createApp({ logger: pino({ level: "silent" }), bodyLimit: 1024 * 1024 });
  healthRoutes(app, { eventStore, readStore: { checkpoint: async () => 0, ping: async () => true } });
  const answer = await app.inject({ method: "GET", url: "/readyz" });
  return { status: answer.statusCode, body: answer.json<{ status: string; lag?: string }>() };
}

it("reads at most READY_MAX_BYTES of the log to answer /readyz, and says catching_up when more lies beyond", async () => {
  const { store, calls } = largeLog(50);
  const answer = await readyz(store);
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) expect(call.maxBytes).toBeLessThanOrEqual(READY_MAX_BYTES);
  expect(answer.status).toBe(503);
  expect(answer.body).toMatchObject({ status: "catching_up", lag: `more than ${READY_MAX_BYTES} bytes of events` });
});

it("is ready when the few events behind fit in the bound", async () => {
  const { store } = largeLog(2);
  const answer = await readyz(store);
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ status: "ready", lag: "2 events" });
});
