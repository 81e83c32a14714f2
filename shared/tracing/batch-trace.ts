// How a span over a batch of events (a projector's, a publisher's) joins the traces of the requests that wrote
// them: a child of the first event that carries a trace context, linked to the others (a bounded number).
import type { RecordedEvent } from "../event-store/event-store.port.ts";
import type { SpanOptions } from "./tracing.port.ts";

const MAX_LINKS = 32;

export function batchTrace(batch: readonly Pick<RecordedEvent, "metadata">[]): Pick<SpanOptions, "parent" | "links"> {
  const contexts = [
    ...new Set(batch.flatMap((event) => (event.metadata.traceparent ? [event.metadata.traceparent] : []))),
  ];
  const [parent = null, ...others] = contexts;
  return { parent, links: others.slice(0, MAX_LINKS) };
}
