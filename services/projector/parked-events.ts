// What an operator does with parked events (shared/read-store/parked-events.port.ts): list them, retry them
// (each applied by its own projection alone, in log order, in a transaction of its own that takes its record
// out), or skip one for good. A retry keeps the order of a stream for a projection: once an event of it fails
// again, its later ones stay parked behind it. Runs beside the live projector: each step is a batch of the read
// store that leaves the checkpoint alone, so it and the projector's batches never interleave.
import type { Logger } from "pino";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import { parseRecorded } from "../../shared/events.ts";
import { HistoryFolds } from "../../shared/history/history-folds.ts";
import { parkedKey, type ParkedEvent, type ProjectionName } from "../../shared/read-store/parked-events.port.ts";
import type { ProjectionStore } from "../../shared/read-store/read-store.port.ts";
import { project } from "./projections/project.ts";

const PAGE = 100;

/** Every parked event, in log order, read page by page. */
export async function* parkedEvents<Tx>(store: ProjectionStore<Tx>): AsyncGenerator<ParkedEvent> {
  let after = 0;
  for (;;) {
    const page = await store.parked.list(null, { after, limit: PAGE });
    const last = page.at(-1);
    if (!last) return;
    // A full page may end part way through the records of one event: those come again with the next page.
    const whole = page.length < PAGE ? page : page.filter((record) => record.position < last.position);
    for (const record of whole) yield record;
    if (page.length < PAGE) return;
    after = whole.length === 0 ? last.position : last.position - 1;
  }
}

export interface RetryOutcome {
  readonly applied: ParkedEvent[];
  readonly stillParked: ParkedEvent[];
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

/** Applies parked events again (those `only` admits; all by default), each by its projection alone. */
export async function retryParked<Tx>(options: {
  eventStore: EventStore;
  store: ProjectionStore<Tx>;
  logger: Logger;
  only?: (record: ParkedEvent) => boolean;
}): Promise<RetryOutcome> {
  const { eventStore, store, logger } = options;
  const applied: ParkedEvent[] = [];
  const stillParked: ParkedEvent[] = [];
  /** (projection, stream) pairs with an event still parked ahead: their later events wait. */
  const waiting = new Set<string>();
  for await (const record of parkedEvents(store)) {
    const key = parkedKey(record.projection, record.stream);
    if (waiting.has(key) || (options.only && !options.only(record))) {
      waiting.add(key);
      stillParked.push(record);
      continue;
    }
    const [recorded] = await eventStore.readAll(record.position - 1, 1);
    if (!recorded || recorded.id !== record.eventId)
      throw new Error(
        `the parked event ${record.eventId} is not at position ${record.position} of the log: were the read models rebuilt from another log?`,
      );
    const stored = parseRecorded(recorded);
    try {
      await store.applyBatch(null, async (tx) => {
        // Taken out by another retry meanwhile: nothing to do.
        if (!(await store.parked.remove(tx, record.projection, record.eventId))) return;
        const folds = new HistoryFolds(store.writers.history, tx);
        await project(stored, store.writers, tx, folds, (projection, apply) =>
          projection === record.projection ? apply() : Promise.resolve(),
        );
        await folds.flush();
      });
      applied.push(record);
      logger.info(
        {
          event: "projection.unparked",
          projection: record.projection,
          eventId: record.eventId,
          position: record.position,
        },
        "parked event applied",
      );
    } catch (error) {
      waiting.add(key);
      stillParked.push(record);
      await store.applyBatch(null, (tx) =>
        store.parked.failedAgain(tx, record.projection, record.eventId, messageOf(error)),
      );
      logger.warn(
        {
          event: "projection.retry_failed",
          err: error,
          projection: record.projection,
          eventId: record.eventId,
          position: record.position,
        },
        "parked event failed again; it stays parked",
      );
    }
  }
  return { applied, stillParked };
}

/**
 * Leaves an event out of a projection for good (of every projection it is parked for, unless `projection`
 * names one), then retries the events of its stream parked behind it for that projection.
 */
export async function skipParked<Tx>(options: {
  eventStore: EventStore;
  store: ProjectionStore<Tx>;
  logger: Logger;
  eventId: string;
  projection: ProjectionName | null;
}): Promise<{ skipped: ParkedEvent[] } & RetryOutcome> {
  const { store, logger } = options;
  const skipped: ParkedEvent[] = [];
  for await (const record of parkedEvents(store)) {
    if (record.eventId !== options.eventId || (options.projection !== null && record.projection !== options.projection))
      continue;
    await store.applyBatch(null, async (tx) => {
      await store.parked.remove(tx, record.projection, record.eventId);
    });
    skipped.push(record);
    logger.warn(
      {
        event: "projection.skipped",
        projection: record.projection,
        eventId: record.eventId,
        position: record.position,
        stream: record.stream,
        type: record.type,
      },
      "parked event skipped on an operator's word: this projection never applies it",
    );
  }
  if (skipped.length === 0) return { skipped, applied: [], stillParked: [] };
  const streams = new Set(skipped.map((record) => parkedKey(record.projection, record.stream)));
  const retried = await retryParked({
    ...options,
    only: (record) => record.cause === "behind" && streams.has(parkedKey(record.projection, record.stream)),
  });
  return { skipped, ...retried };
}
