// The largest append the application makes, the same on every event store: derived from the smallest limit among
// the stores (EventStoreDB refuses an append whose events exceed 1 MiB together, its default MaxAppendSize; SQLite
// and MongoDB's 16 MiB documents take more), with room left for what a store adds to each event. Bus messages
// carry ids only (shared/bus/integration-events.ts), so NATS's 1 MB message limit does not bound events.
import { AppError } from "../errors/app-error.ts";
import type { NewEvent } from "./event-store.port.ts";

export const MAX_APPEND_BYTES = 1_000_000;

/** What an append weighs as the stores count it: the UTF-8 bytes of each event's type, data and metadata. */
export function appendBytes(events: readonly NewEvent[]): number {
  return events.reduce((sum, event) => sum + Buffer.byteLength(event.type) + Buffer.byteLength(JSON.stringify(event.data)) + Buffer.byteLength(JSON.stringify(event.metadata)), 0);
}

/** A change too large to record as one append; 413 to a client. */
export class AppendTooLargeError extends AppError {
  constructor(bytes: number | null) {
    super(
      "payload_too_large",
      `the change is too large to record${bytes === null ? "" : ` (${bytes} bytes)`}: at most ${MAX_APPEND_BYTES} bytes; text counts in UTF-8, where a character outside ASCII takes 2 to 4 bytes`,
    );
  }
}

export function assertAppendSize(events: readonly NewEvent[]): void {
  const bytes = appendBytes(events);
  if (bytes > MAX_APPEND_BYTES) throw new AppendTooLargeError(bytes);
}
