// Event store appends in batches of 1 and of 100, beside raw better-sqlite3 inserts of the same rows in the same
// transaction sizes (the ceiling) and Emmett's SQLite event store (a peer), all on fresh files.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import { toNewEvents } from "../shared/commands/new-events.ts";
import { SqliteEventStore } from "../shared/adapters/sqlite/sqlite.event-store.ts";
import type { DomainEvent } from "../shared/events.ts";
import { pageIdSchema, userIdSchema } from "../shared/kernel/ids.ts";
import { emmettPeer } from "./peer.ts";

export interface AppendFigures {
  readonly batchSize: number;
  readonly oursPerSecond: number;
  readonly rawPerSecond: number;
  readonly emmettPerSecond: number | null;
}

const actorId = userIdSchema.parse(randomUUID());

function renameEvents(count: number): DomainEvent[] {
  const pageId = pageIdSchema.parse(randomUUID());
  return Array.from({ length: count }, (_, i) => ({
    type: "PageRenamed" as const,
    data: { pageId, title: `Title ${i}`, previousTitle: null },
  }));
}

async function ours(dir: string, total: number, batchSize: number): Promise<number> {
  const store = new SqliteEventStore(join(dir, `ours-${batchSize}.sqlite`));
  const batches = Array.from({ length: total / batchSize }, () =>
    toNewEvents(renameEvents(batchSize), { actorId, correlationId: randomUUID(), now: new Date() }),
  );
  const started = performance.now();
  for (const batch of batches) await store.append(`page-${randomUUID()}`, batch, "no_stream");
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return total / seconds;
}

function raw(dir: string, total: number, batchSize: number): number {
  const db = new Database(join(dir, `raw-${batchSize}.sqlite`));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, stream TEXT NOT NULL,
    revision INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, UNIQUE (stream, revision))`);
  const insert = db.prepare(
    "INSERT INTO events (id, stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const rows = Array.from({ length: total / batchSize }, () => {
    const stream = `page-${randomUUID()}`;
    return toNewEvents(renameEvents(batchSize), { actorId, correlationId: randomUUID(), now: new Date() }).map(
      (event, revision) =>
        [event.id, stream, revision, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata)] as const,
    );
  });
  const write = db.transaction((batch: ReadonlyArray<readonly [string, string, number, string, string, string]>) => {
    for (const row of batch) insert.run(...row);
  });
  const started = performance.now();
  for (const batch of rows) write.immediate(batch);
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return total / seconds;
}

/** Emmett appends one event at a few hundred a second here: a rate is measured on at most this many. */
const EMMETT_MAX_EVENTS_PER_BATCH_SIZE = 2_000;

async function emmett(dir: string, requested: number, batchSize: number): Promise<number | null> {
  const total = Math.max(batchSize, Math.min(requested, EMMETT_MAX_EVENTS_PER_BATCH_SIZE * (batchSize === 1 ? 1 : 10)));
  const getSQLiteEventStore = await emmettPeer((line) => process.stderr.write(`[bench] ${line}\n`));
  if (!getSQLiteEventStore) return null;
  try {
    const store = getSQLiteEventStore({
      fileName: join(dir, `emmett-${batchSize}.sqlite`),
      schema: { autoMigration: "CreateOrUpdate" },
    });
    const batches = Array.from({ length: total / batchSize }, () =>
      renameEvents(batchSize).map((event) => ({ type: event.type, data: { ...event.data } })),
    );
    await store.appendToStream(`warmup-${randomUUID()}`, [{ type: "Warmup", data: { ok: true } }]);
    const started = performance.now();
    for (const batch of batches) await store.appendToStream(`page-${randomUUID()}`, batch);
    return total / ((performance.now() - started) / 1000);
  } catch (error) {
    process.stderr.write(`emmett peer failed: ${String(error)}\n`);
    return null;
  }
}

export async function benchAppends(
  dir: string,
  total: number,
  options: { peer: boolean } = { peer: true },
): Promise<AppendFigures[]> {
  const figures: AppendFigures[] = [];
  for (const batchSize of [1, 100]) {
    const count = Math.max(batchSize, Math.floor(total / batchSize) * batchSize);
    figures.push({
      batchSize,
      rawPerSecond: raw(dir, count, batchSize),
      oursPerSecond: await ours(dir, count, batchSize),
      emmettPerSecond: options.peer ? await emmett(dir, count, batchSize) : null,
    });
  }
  return figures;
}
