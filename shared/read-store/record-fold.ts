// A read model's record as a pure fold of events: `evolve(record | null, event) → record | null` over the event
// types it handles (Emmett's `canHandle`). The projector's writers store what it returns, a write folds its own
// stream with it while the read side is behind, and the read-store contract suite takes it as its oracle.
import type { DomainEvent, DomainEventType, StoredEvent } from "../events.ts";

type EventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

export interface RecordFold<R, T extends DomainEventType> {
  /** The event types that change the record; any other event leaves it as it is. */
  readonly canHandle: readonly T[];
  /** The record after `event`; null when there is none (not made yet, or gone). */
  readonly evolve: (record: R | null, event: StoredEvent<EventOf<T>>) => R | null;
}

export interface BoundRecordFold<R, T extends DomainEventType> extends RecordFold<R, T> {
  readonly handles: (stored: StoredEvent) => stored is StoredEvent<EventOf<T>>;
  /** The record after every event of `events` it handles, from `from` (none unless given). */
  readonly fold: (events: Iterable<StoredEvent>, from?: R | null) => R | null;
}

/** Declares a record's fold: `recordFold<TheRecord>()({ canHandle: [...], evolve })`, the event types inferred. */
export const recordFold =
  <R>() =>
  <T extends DomainEventType>(declared: RecordFold<R, T>): BoundRecordFold<R, T> =>
    bind(declared);

function bind<R, T extends DomainEventType>(declared: RecordFold<R, T>): BoundRecordFold<R, T> {
  const types: ReadonlySet<DomainEventType> = new Set(declared.canHandle);
  const handles = (stored: StoredEvent): stored is StoredEvent<EventOf<T>> => types.has(stored.event.type);
  return {
    ...declared,
    handles,
    fold(events, from = null) {
      let record = from;
      for (const stored of events) if (handles(stored)) record = declared.evolve(record, stored);
      return record;
    },
  };
}
