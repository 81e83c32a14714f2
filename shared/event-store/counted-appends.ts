// An event store that reports what is appended through it, by event type: one decorator for every adapter.
import type { AppendMetrics } from "../metrics/metrics.port.ts";
import type { EventStore } from "./event-store.port.ts";

/** Counts the events appended through the returned store; an idempotent re-append of stored ids counts again. */
export function countedAppends(store: EventStore, metrics: AppendMetrics): EventStore {
  return {
    async append(stream, events, expectedRevision) {
      const result = await store.append(stream, events, expectedRevision);
      metrics.appended(events.map((event) => event.type));
      return result;
    },
    read: (stream) => store.read(stream),
    readAll: (after, limit, maxBytes) => store.readAll(after, limit, maxBytes),
    headPosition: () => store.headPosition(),
    subscribe: (after, handler, options) => store.subscribe(after, handler, options),
    close: () => store.close(),
  };
}
