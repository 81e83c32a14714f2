// The trace context a bus message carries: its event's `traceparent` (in the payload's metadata, and as a NATS
// header), read as well formed or not at all.
import { traceparentSchema } from "../tracing/tracing.port.ts";
import type { BusMessage } from "./bus.port.ts";

export function traceparentOf(message: BusMessage): string | null {
  const parsed = traceparentSchema.safeParse(message.metadata["traceparent"]);
  return parsed.success ? parsed.data : null;
}
