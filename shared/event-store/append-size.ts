// The largest append the application makes, the same on every event store: EventStoreDB's, the smallest (its
// default MaxAppendSize, 1 MiB for the events of one append together; SQLite and MongoDB's 16 MiB documents take
// more). It is measured on the events as the store receives them: sealed fields (shared/erasure) at their sealed
// size, about 4/3 of their text in UTF-8, so what one stack accepts the other accepts too. Bus messages carry ids
// only (shared/bus/integration-events.ts), so NATS's 1 MB message limit does not bound events.
import { AppError } from "../errors/app-error.ts";
import type { NewEvent } from "./event-store.port.ts";

export const MAX_APPEND_BYTES = 1_048_576;

/** What a store adds to each event beyond its data, metadata and type (EventStoreDB: $correlationId, $causationId). */
const EVENT_OVERHEAD_BYTES = 256;

/**
 * The most UTF-8 bytes of text one sealed field may hold so that its event always fits one append, leaving 24 KiB
 * for the event's other fields (a title, a path) and its metadata: base64 takes 4 bytes per 3.
 */
export const MAX_SEALED_TEXT_BYTES = ((MAX_APPEND_BYTES - 24 * 1024) * 3) / 4;

/**
 * What an append weighs as EventStoreDB counts it: each event's data and metadata in UTF-8 bytes, its type twice
 * (it is stored as UTF-16), and what the adapter adds.
 */
function appendBytes(events: readonly NewEvent[]): number {
  return events.reduce(
    (sum, event) =>
      sum +
      2 * Buffer.byteLength(event.type) +
      Buffer.byteLength(JSON.stringify(event.data) ?? "") +
      Buffer.byteLength(JSON.stringify(event.metadata)) +
      EVENT_OVERHEAD_BYTES,
    0,
  );
}

/** A change too large to record as one append; 413 to a client. */
export class AppendTooLargeError extends AppError {
  constructor(bytes: number | null) {
    super(
      "payload_too_large",
      `the change is too large to record${bytes === null ? "" : ` (${bytes} bytes as stored)`}: at most ${MAX_APPEND_BYTES} bytes as stored; text counts in UTF-8, where a character outside ASCII takes 2 to 4 bytes, and a page's content, title and other personal data are stored encrypted, at about 4/3 of their size`,
    );
  }
}

/** Checks an append as the store will receive it: after sealing, where the process seals. */
export function assertAppendSize(events: readonly NewEvent[]): void {
  const bytes = appendBytes(events);
  if (bytes > MAX_APPEND_BYTES) throw new AppendTooLargeError(bytes);
}
