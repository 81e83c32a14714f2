// The cost of sealing: the same writes on the plain SQLite event store and through the sealing store (with the
// key store and key cache the services use), a replay of the same history from a plain log and from a sealed
// one, and reads of the read models each replay built (plaintext both: reads never open an envelope). Each pair
// runs on fresh files in this process, three rounds interleaved, plain first in one round and sealed first in
// the next, the best rate of each kept (the machine's speed drifts over a run, and whichever runs second in a
// round was measured slower by up to a fifth). The history is the write side's mix: pages created and edited (2 KB of markdown), renamed,
// and profiles changed; which of its events have sealed fields follows the sealing rules (shared/erasure).
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { rebuildReadModels } from "../services/projector/rebuild.ts";
import { KEY_CACHE_ENTRIES } from "../services/wiring/erasure.ts";
import { SqliteEventStore } from "../shared/adapters/sqlite/sqlite.event-store.ts";
import { SqliteKeyStore } from "../shared/adapters/sqlite/sqlite.key-store.ts";
import { SqliteProjectionStore, SqliteReadStore } from "../shared/adapters/sqlite/sqlite.read-store.ts";
import { toNewEvents } from "../shared/commands/new-events.ts";
import { CachedKeyStore } from "../shared/erasure/cached-key-store.ts";
import { KeyEncryptionKey } from "../shared/erasure/key-encryption-key.ts";
import { sealingRuleOf } from "../shared/erasure/sealed-fields.ts";
import { SealingEventStore } from "../shared/erasure/sealing-event-store.ts";
import type { EventStore, NewEvent } from "../shared/event-store/event-store.port.ts";
import type { DomainEvent } from "../shared/events.ts";
import { pageIdSchema, userIdSchema, type UserId } from "../shared/kernel/ids.ts";
import { fmt, renderTable, verdict, type Row } from "./report.ts";

const silent = pino({ level: "silent" });
const kek = new KeyEncryptionKey("benchmark-key-encryption-key-long-enough-for-hkdf");
const MARKDOWN = "The quarterly plan covers hiring, the storage migration and the new onboarding flow. ".repeat(24);

interface Append {
  readonly stream: string;
  readonly events: NewEvent[];
}

/** Operations per second of wall-clock time, and per second of this process's CPU time (user and system). */
interface Rate {
  readonly perSecond: number;
  readonly perCpuSecond: number;
}

interface PairFigures {
  /** Events (or reads) measured. */
  readonly count: number;
  /** Share of the events that have fields the sealing rules seal. */
  readonly sealedShare: number;
  readonly plain: Rate;
  readonly sealed: Rate;
}

export interface ErasureCostFigures {
  readonly writes: PairFigures;
  readonly replay: PairFigures;
  readonly reads: PairFigures;
}

/** Times `work`, which does `count` operations. */
async function rate(count: number, work: () => Promise<unknown>): Promise<Rate> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { perSecond: count / seconds, perCpuSecond: count / ((used.user + used.system) / 1e6) };
}

/** Ten events a page, one append each: created, three edits, five renames, and its owner's profile changed. */
function history(events: number): { appends: Append[]; pageIds: string[] } {
  const owners: UserId[] = Array.from({ length: 100 }, () => userIdSchema.parse(randomUUID()));
  const appends: Append[] = [];
  const pageIds: string[] = [];
  for (let page = 0; appends.length < events; page += 1) {
    const ownerId = owners[page % owners.length] ?? userIdSchema.parse(randomUUID());
    const pageId = pageIdSchema.parse(randomUUID());
    pageIds.push(pageId);
    const context = { actorId: ownerId, correlationId: randomUUID(), now: new Date() };
    const one = (stream: string, event: DomainEvent) => appends.push({ stream, events: toNewEvents([event], context) });
    one(`page-${pageId}`, {
      type: "PageCreated",
      data: { pageId, ownerId, parentId: null, title: `Plan ${page}`, icon: null, markdown: MARKDOWN },
    });
    for (let edit = 0; edit < 3; edit += 1)
      one(`page-${pageId}`, { type: "PageContentReplaced", data: { pageId, markdown: `${MARKDOWN}\n\nEdit ${edit}` } });
    for (let rename = 0; rename < 5; rename += 1)
      one(`page-${pageId}`, {
        type: "PageRenamed",
        data: { pageId, title: `Plan ${page}.${rename}`, previousTitle: null },
      });
    one(`user-${ownerId}`, {
      type: "UserProfileChanged",
      data: { userId: ownerId, name: `Owner ${page}`, image: null },
    });
  }
  return { appends: appends.slice(0, events), pageIds };
}

const sealedShareOf = (appends: readonly Append[]): number =>
  appends.filter((append) => append.events.some((event) => sealingRuleOf(event.type) !== null)).length /
  Math.max(1, appends.length);

/** The event store the services open: the sealing store over the log, the key store behind the key cache. */
function sealedStore(dir: string, name: string): EventStore {
  const keys = new CachedKeyStore(new SqliteKeyStore(join(dir, `${name}-keys.sqlite`), kek), {
    maxEntries: KEY_CACHE_ENTRIES,
    ttlMs: 60_000,
  });
  return new SealingEventStore(new SqliteEventStore(join(dir, `${name}-events.sqlite`)), keys, kek, {
    closeKeys: true,
  });
}

/** Appends as a lone writer does, each awaited. */
async function write(store: EventStore, appends: readonly Append[]): Promise<Rate> {
  const measured = await rate(appends.length, async () => {
    for (const append of appends) await store.append(append.stream, append.events, "any");
  });
  await store.close();
  return measured;
}

async function replay(store: EventStore, dir: string, name: string, events: number): Promise<Rate> {
  const projection = new SqliteProjectionStore(join(dir, `${name}-read.sqlite`));
  const measured = await rate(events, () =>
    rebuildReadModels({ eventStore: store, store: projection, logger: silent, batchSize: 5_000 }),
  );
  await projection.close();
  await store.close();
  return measured;
}

async function reads(dir: string, name: string, pageIds: readonly string[], queries: number): Promise<Rate> {
  const store = new SqliteReadStore(join(dir, `${name}-read.sqlite`));
  const measured = await rate(queries, async () => {
    for (let i = 0; i < queries; i += 1) {
      const content = await store.pages.getContent(pageIds[(i * 7919) % pageIds.length] ?? "");
      if (content === null) throw new Error("a page the replay built is missing");
    }
  });
  await store.close();
  return measured;
}

const none: Rate = { perSecond: 0, perCpuSecond: 0 };
const better = (a: Rate, b: Rate): Rate => ({
  perSecond: Math.max(a.perSecond, b.perSecond),
  perCpuSecond: Math.max(a.perCpuSecond, b.perCpuSecond),
});
const ROUNDS = [1, 2, 3] as const;
/** Plain first in odd rounds, sealed first in even ones. */
async function inTurn(round: number, plain: () => Promise<unknown>, sealed: () => Promise<unknown>): Promise<void> {
  for (const run of round % 2 === 1 ? [plain, sealed] : [sealed, plain]) await run();
}

export async function benchErasureCost(
  dir: string,
  sizes: { writeEvents: number; replayEvents: number },
  log: (line: string) => void,
): Promise<ErasureCostFigures> {
  const writes = history(sizes.writeEvents);
  let plainWrites = none;
  let sealedWrites = none;
  for (const round of ROUNDS) {
    log(`sealing cost: ${fmt(writes.appends.length)} writes, plain and sealed (round ${round})`);
    const plain = async () =>
      (plainWrites = better(
        plainWrites,
        await write(new SqliteEventStore(join(dir, `plain-writes-${round}.sqlite`)), writes.appends),
      ));
    const sealed = async () =>
      (sealedWrites = better(sealedWrites, await write(sealedStore(dir, `sealed-writes-${round}`), writes.appends)));
    await inTurn(round, plain, sealed);
  }

  const past = history(sizes.replayEvents);
  log(`sealing cost: seeding ${fmt(past.appends.length)} events twice, plain and sealed`);
  await write(new SqliteEventStore(join(dir, "plain-replay-events.sqlite")), past.appends);
  await write(sealedStore(dir, "sealed-replay"), past.appends);
  let plainReplay = none;
  let sealedReplay = none;
  for (const round of ROUNDS) {
    log(`sealing cost: replay of ${fmt(past.appends.length)} events, plain and sealed (round ${round})`);
    const plain = async () =>
      (plainReplay = better(
        plainReplay,
        await replay(
          new SqliteEventStore(join(dir, "plain-replay-events.sqlite")),
          dir,
          `plain-${round}`,
          past.appends.length,
        ),
      ));
    const sealed = async () =>
      (sealedReplay = better(
        sealedReplay,
        await replay(sealedStore(dir, "sealed-replay"), dir, `sealed-${round}`, past.appends.length),
      ));
    await inTurn(round, plain, sealed);
  }

  const queries = Math.min(20_000, past.pageIds.length * 4);
  let plainReads = none;
  let sealedReads = none;
  for (const round of ROUNDS) {
    const plain = async () =>
      (plainReads = better(plainReads, await reads(dir, `plain-${round}`, past.pageIds, queries)));
    const sealed = async () =>
      (sealedReads = better(sealedReads, await reads(dir, `sealed-${round}`, past.pageIds, queries)));
    await inTurn(round, plain, sealed);
  }
  return {
    writes: {
      count: writes.appends.length,
      sealedShare: sealedShareOf(writes.appends),
      plain: plainWrites,
      sealed: sealedWrites,
    },
    replay: {
      count: past.appends.length,
      sealedShare: sealedShareOf(past.appends),
      plain: plainReplay,
      sealed: sealedReplay,
    },
    reads: { count: queries, sealedShare: 0, plain: plainReads, sealed: sealedReads },
  };
}

const WITHIN = 0.9;

/**
 * The verdict compares CPU time: on a shared machine the wall-clock rate of the very same replay varies by half
 * from one run to the next (other processes take the cores), while the work sealing adds is CPU work.
 */
function pairRow(figure: string, unit: string, reference: string, f: PairFigures): Row {
  const ratio = f.sealed.perCpuSecond / f.plain.perCpuSecond;
  return {
    figure,
    value: `${fmt(f.sealed.perCpuSecond)} ${unit}/CPU-s (${fmt(f.sealed.perSecond)} ${unit}/s)`,
    reference: `${reference} ${fmt(f.plain.perCpuSecond)} ${unit}/CPU-s (${fmt(f.plain.perSecond)} ${unit}/s)`,
    ratio: `${fmt(ratio, 2)}× plain (wall ${fmt(f.sealed.perSecond / f.plain.perSecond, 2)}×)`,
    target: "≥ 0.9× plain (within 10 %)",
    verdict: verdict(ratio >= WITHIN),
  };
}

export function erasureCostRows(figures: ErasureCostFigures): Row[] {
  const share = (f: PairFigures) => `${fmt(f.count)} events, ${fmt(f.sealedShare * 100)} % with sealed fields`;
  return [
    pairRow(
      `event store writes with sealing, one event an append (${share(figures.writes)})`,
      "events",
      "plain store",
      figures.writes,
    ),
    pairRow(
      `replay with encryption into an empty read store (${share(figures.replay)})`,
      "events",
      "plain log",
      figures.replay,
    ),
    pairRow(
      `page content reads from read models a sealed log built (${fmt(figures.reads.count)} reads)`,
      "reads",
      "a plain log's",
      figures.reads,
    ),
  ];
}

/** Sizes of a run: the writes row takes the appends row's count, the replay half the replay row's. */
export const erasureCostSizes = (options: { appendEvents: number; replayEvents: number }) => ({
  writeEvents: options.appendEvents,
  replayEvents: Math.floor(options.replayEvents / 2),
});

/** `npm run bench -- --only erasure`: these rows alone, printed and written to bench/results/<date>-erasure.json. */
export async function benchErasureCostOnly(options: {
  appendEvents: number;
  replayEvents: number;
  quick: boolean;
  log: (line: string) => void;
}): Promise<void> {
  const started = Date.now();
  const dir = await mkdtemp(join(tmpdir(), "workspace-bench-erasure-"));
  try {
    const figures = await benchErasureCost(dir, erasureCostSizes(options), options.log);
    const rows = erasureCostRows(figures);
    process.stdout.write(
      `\nsealing-cost rows alone in ${fmt((Date.now() - started) / 1000)} s\n\n${renderTable(rows)}\n`,
    );
    mkdirSync("bench/results", { recursive: true });
    const file = join(
      "bench/results",
      `${new Date().toISOString().replaceAll(":", "-").slice(0, 19)}-erasure${options.quick ? "-quick" : ""}.json`,
    );
    writeFileSync(file, `${JSON.stringify({ erasureCost: figures, rows }, null, 2)}\n`);
    options.log(`results written to ${file}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
