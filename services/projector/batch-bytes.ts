// How much of the global log one projection batch holds: at most a number of events (the subscription's batch
// size) and at most a number of bytes, so a run of large events (an import of long notes, a purge of a big
// folder) never makes one transaction the read store cannot hold.
import type { RecordedEvent } from "../../shared/event-store/event-store.port.ts";

/**
 * The default byte budget of one batch. Small events (a few hundred bytes) still go 500 to a batch; events near
 * the 1 MB limit of one change go a few at a time, well below the share of MongoDB's WiredTiger cache one
 * transaction may dirty on a small server.
 */
export const DEFAULT_BATCH_BYTES = 4 * 1024 * 1024;

/** What an event weighs in a batch: its data and metadata as JSON, in UTF-8 bytes, as the stores count them. */
function eventBytes(event: RecordedEvent): number {
  return (
    Buffer.byteLength(event.type) +
    Buffer.byteLength(JSON.stringify(event.data) ?? "") +
    Buffer.byteLength(JSON.stringify(event.metadata))
  );
}

/**
 * Cuts `events` into consecutive runs of at most `maxBytes` each; an event heavier than the budget on its own
 * makes a run of one, so every event is in exactly one run, in order.
 */
export function chunkByBytes(events: readonly RecordedEvent[], maxBytes: number): RecordedEvent[][] {
  // One event is one run whatever it weighs: the live projector's usual batch, not measured (JSON again).
  if (events.length === 1) return [[...events]];
  const chunks: RecordedEvent[][] = [];
  let current: RecordedEvent[] = [];
  let bytes = 0;
  for (const event of events) {
    const size = eventBytes(event);
    if (current.length > 0 && bytes + size > maxBytes) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(event);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
