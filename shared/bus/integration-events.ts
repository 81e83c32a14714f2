// Stored domain events as bus messages (integration events): the message id is the event id, the subject its
// type, and the data only the ids the event names. Consumers read what they need from the event store or the
// read models by those ids, so no page content, title, email address or comment text travels on the bus or
// stays in its stream, and a message is a few hundred bytes whatever the event holds.
import type { StoredEvent } from "../events.ts";
import type { BusMessage } from "./bus.port.ts";

const ID_KEY = /(^id|Id|Ids)$/;

function idsOf(data: unknown): Record<string, string | readonly string[]> {
  if (typeof data !== "object" || data === null) return {};
  const ids: Record<string, string | readonly string[]> = {};
  for (const [key, value] of Object.entries(data)) {
    if (!ID_KEY.test(key)) continue;
    if (typeof value === "string") ids[key] = value;
    else if (Array.isArray(value) && value.every((item): item is string => typeof item === "string")) ids[key] = value;
  }
  return ids;
}

export function toBusMessage(stored: StoredEvent): BusMessage {
  return {
    id: stored.id,
    subject: stored.event.type,
    data: idsOf(stored.event.data),
    metadata: { ...stored.metadata, stream: stored.stream, position: stored.position },
  };
}
