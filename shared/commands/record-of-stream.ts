// A read model's record as the write side knows it: the record's fold over its stream, the events just appended
// included. What a write answers while the read models have not caught up with it.
import type { EventStore } from "../event-store/event-store.port.ts";
import { parseRecorded, type DomainEventType } from "../events.ts";
import type { BoundRecordFold } from "../read-store/record-fold.ts";

export async function recordOfStream<R, T extends DomainEventType>(
  store: EventStore,
  stream: string,
  record: BoundRecordFold<R, T>,
): Promise<R | null> {
  const { events } = await store.read(stream);
  return record.fold(events.map(parseRecorded));
}
