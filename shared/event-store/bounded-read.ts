// Reading the global log in batches bounded by bytes as well as by count, over the port's count-only readAll:
// the log is read in steps sized from the largest event seen so far, and a batch closes once it holds
// `maxEvents` events or `maxBytes` of event data (measured as JSON), so a run of large events (pages of hundreds
// of KB) makes smaller batches, never a batch of gigabytes. A batch passes `maxBytes` by at most one step, whose
// events are expected to fit (a step after small events may meet larger ones); it always holds one event.
import type { EventStore, RecordedEvent } from "./event-store.port.ts";

export interface BatchBounds {
  readonly maxEvents: number;
  readonly maxBytes: number;
}

/** Events read at most per step: a batch of small events costs a few reads, not one per event. */
const MAX_STEP = 100;

/** The size an event's data is counted at (its JSON's UTF-16 length: close to its stored size, cheap to take). */
const sizeOf = (event: RecordedEvent): number => JSON.stringify(event.data ?? null).length;

/** The next batch of events after `afterPosition`; empty at the log's end. */
export async function readAllBounded(
  eventStore: Pick<EventStore, "readAll">,
  afterPosition: number,
  bounds: BatchBounds,
): Promise<RecordedEvent[]> {
  const batch: RecordedEvent[] = [];
  let bytes = 0;
  let largest = 0;
  let position = afterPosition;
  // The first step reads one event: nothing is known yet of the events' sizes.
  for (let step = 1; batch.length < bounds.maxEvents && bytes < bounds.maxBytes;) {
    const read = await eventStore.readAll(position, step);
    for (const event of read) {
      const size = sizeOf(event);
      batch.push(event);
      bytes += size;
      largest = Math.max(largest, size);
      position = event.position;
    }
    if (read.length < step) break;
    const fits = Math.floor((bounds.maxBytes - bytes) / Math.max(1, largest));
    step = Math.max(1, Math.min(MAX_STEP, fits, bounds.maxEvents - batch.length));
  }
  return batch;
}
