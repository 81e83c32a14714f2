// Projection figures: lag under a steady write rate in the all-in-one arrangement (projector in process,
// woken on commit), and a full replay into an empty read store beside a raw SQLite read of the same events.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import { pino } from "pino";
import { rebuildReadModels } from "../services/projector/rebuild.ts";
import { toNewEvents } from "../shared/commands/new-events.ts";
import { SqliteEventStore } from "../shared/adapters/sqlite/sqlite.event-store.ts";
import type { DomainEvent } from "../shared/events.ts";
import { pageIdSchema, userIdSchema } from "../shared/kernel/ids.ts";
import { SqliteProjectionStore } from "../shared/adapters/sqlite/sqlite.read-store.ts";
import { startLiveProjection } from "./live-projection.ts";
import { untilDue } from "./pace.ts";

const silent = pino({ level: "silent" });
const actorId = userIdSchema.parse(randomUUID());
const context = () => ({ actorId, correlationId: randomUUID(), now: new Date() });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function benchProjectionLag(
  dir: string,
  writesPerSecond: number,
  seconds: number,
): Promise<{ p50Ms: number; p99Ms: number; writes: number }> {
  const { eventStore, watcher, stop } = await startLiveProjection(dir, "lag");
  const lags: number[] = [];
  const pending: Array<Promise<void>> = [];
  const total = writesPerSecond * seconds;
  const started = performance.now();
  for (let i = 0; i < total; i += 1) {
    await untilDue(started, i, writesPerSecond);
    const pageId = pageIdSchema.parse(randomUUID());
    const events: DomainEvent[] = [
      {
        type: "PageCreated",
        data: { pageId, ownerId: actorId, parentId: null, title: `Lag ${i}`, icon: null, markdown: "x".repeat(2_048) },
      },
    ];
    const { position } = await eventStore.append(`page-${pageId}`, toNewEvents(events, context()), "no_stream");
    const appended = performance.now();
    pending.push(watcher.waitFor(position, 10_000).then(() => void lags.push(performance.now() - appended)));
  }
  await Promise.all(pending);
  await stop();
  lags.sort((a, b) => a - b);
  return { p50Ms: percentile(lags, 50), p99Ms: percentile(lags, 99), writes: lags.length };
}

/** One PageCreated then nine PageRenamed per page, `eventCount` events in all: the mix a long-lived workspace accumulates. */
export async function seedReplayHistory(
  eventStore: SqliteEventStore,
  eventCount: number,
  onProgress: (line: string) => void,
): Promise<void> {
  for (let written = 0; written < eventCount; written += 10) {
    const pageId = pageIdSchema.parse(randomUUID());
    const events: DomainEvent[] = [
      {
        type: "PageCreated",
        data: {
          pageId,
          ownerId: actorId,
          parentId: null,
          title: "Replay",
          icon: null,
          markdown: "# Replay\n\nA short page.",
        },
      },
      ...Array.from({ length: 9 }, (_, i): DomainEvent => ({
        type: "PageRenamed",
        data: { pageId, title: `Replay ${i}`, previousTitle: null },
      })),
    ];
    await eventStore.append(`page-${pageId}`, toNewEvents(events, context()), "no_stream");
    if (written % 100_000 === 0)
      onProgress(`seeding replay history: ${written.toLocaleString()} / ${eventCount.toLocaleString()} events`);
  }
}

export async function benchReplay(
  dir: string,
  eventCount: number,
  onProgress: (line: string) => void,
): Promise<{ events: number; eventsPerSecond: number; rawReadPerSecond: number }> {
  const file = join(dir, "replay-events.sqlite");
  const eventStore = new SqliteEventStore(file);
  await seedReplayHistory(eventStore, eventCount, onProgress);
  const rawDb = new Database(file, { readonly: true });
  const rawStarted = performance.now();
  let rawRows = 0;
  for (const row of rawDb.prepare("SELECT * FROM events ORDER BY position").iterate()) if (row) rawRows += 1;
  const rawSeconds = (performance.now() - rawStarted) / 1000;
  rawDb.close();

  const store = new SqliteProjectionStore(join(dir, "replay-read.sqlite"));
  const result = await rebuildReadModels({
    eventStore,
    store,
    logger: silent,
    batchSize: 5_000,
    onProgress: ({ applied, head }) => {
      if (applied % 100_000 === 0)
        onProgress(`replaying: ${applied.toLocaleString()} / ${head.toLocaleString()} events`);
    },
  });
  await store.close();
  await eventStore.close();
  return {
    events: result.applied,
    eventsPerSecond: result.applied / result.seconds,
    rawReadPerSecond: rawRows / rawSeconds,
  };
}
