// An event store whose appends and stream reads are spans, and whose appended events carry the append's trace
// context in their metadata (`traceparent`), so the projector, the bus and the notifier continue the trace of
// the request that wrote them. The store itself when tracing is off: nothing is added to any event.
import { tracing } from "../tracing/tracing.port.ts";
import type { EventStore } from "./event-store.port.ts";

/** `page-<id>` → `page`: the kind of stream, not the entity (a span's attributes name no one). */
const categoryOf = (stream: string): string => stream.split(/[-:]/, 1)[0] ?? stream;

export function tracedEventStore(store: EventStore): EventStore {
  const traces = tracing();
  if (!traces.enabled) return store;
  return {
    append: (stream, events, expectedRevision) =>
      traces.inSpan(
        "event_store.append",
        {
          kind: "client",
          attributes: { "workspace.stream.category": categoryOf(stream), "workspace.event.count": events.length },
        },
        (span) => {
          const traceparent = span.traceparent();
          const stamped = traceparent
            ? events.map((event) =>
                event.metadata.traceparent ? event : { ...event, metadata: { ...event.metadata, traceparent } },
              )
            : events;
          return store.append(stream, stamped, expectedRevision);
        },
      ),
    read: (stream) =>
      traces.inSpan(
        "event_store.read",
        { kind: "client", attributes: { "workspace.stream.category": categoryOf(stream) } },
        () => store.read(stream),
      ),
    readAll: (after, limit, maxBytes) => store.readAll(after, limit, maxBytes),
    headPosition: () => store.headPosition(),
    subscribe: (after, handler, options) => store.subscribe(after, handler, options),
    close: () => store.close(),
  };
}
