// Stored domain events as bus messages: the message id is the event id, the subject its type.
import type { StoredEvent } from "../events.ts";
import type { BusMessage } from "./bus.port.ts";

export function toBusMessage(stored: StoredEvent): BusMessage {
  return { id: stored.id, subject: stored.event.type, data: stored.event.data, metadata: { ...stored.metadata, position: stored.position } };
}
