// `npm run bench -- --only noisy [--quick]`: the noisy-neighbour rows. For each shared resource (neighbours.ts), a
// second caller's ordinary request is timed alone (quiet), then again while one caller behaves at its worst within
// the limits (noisy). Target on every row: the second caller's p99 ≤ 2× its quiet p99 + one task's time limit
// (WORKER_TASK_TIME_LIMIT_MS), i.e. one caller delays another by at most the task already running. The server runs
// with the default rate limits, so "within the limits" includes the attacker's budgets.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mintSession } from "../../shared/auth/session-verifier.ts";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import { toNewEvents } from "../../shared/commands/new-events.ts";
import { pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { startChild } from "../processes.ts";
import { fmt, renderTable, verdict, writeResults, type Row } from "../report.ts";
import { percentile } from "../worst/probe.ts";
import type { Caller } from "../worst/fixture/calls.ts";
import { NEIGHBOURS, type Neighbour, type NeighbourContext } from "./neighbours.ts";

/** The documented default budgets and shares (docs/operations/configuration.md): the benchmark's processes lift them otherwise. */
const DEFAULT_RATE_LIMITS = {
  WORKER_TASKS_PER_CALLER: "4",
  RATE_LIMIT_READ: "12000/1m",
  RATE_LIMIT_WRITE: "3000/1m",
  RATE_LIMIT_SEARCH: "1200/1m",
  RATE_LIMIT_UPLOAD: "300/1m",
  RATE_LIMIT_IMPORT: "60/1m",
  RATE_LIMIT_SHARING: "60/1h",
};
/** The searcher's workspace: large enough that an unbounded search holds the event loop for most of a second. */
const SEARCH_PAGES = 10_000;
const PROSE =
  "The quarterly plan covers hiring the storage migration and the new onboarding flow. Each team lists its goals owners and risks, " +
  "and links the pages where the details live. Decisions are recorded with their date and the people who made them. ";
/** Between two of the victim's requests: an ordinary client, not a second load. */
const VICTIM_PAUSE_MS = 50;
/** How long the attackers run before the victim is timed, so it meets them at full strength. */
const RAMP_MS = 1_000;
/** An attacker's request still running when the row ends is waited for at most this long. */
const DRAIN_MS = 120_000;

interface Sampled {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly count: number;
  readonly statuses: Record<string, number>;
}

interface NoisyFigures {
  readonly resource: string;
  readonly attacker: string;
  readonly victim: string;
  readonly quiet: Sampled;
  readonly noisy: Sampled;
  readonly attackStatuses: Record<string, number>;
  readonly targetMs: number;
}

const count = (statuses: Record<string, number>, status: number | string): void => {
  statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
};

async function sample(request: () => Promise<number>, ms: number, pauseMs = VICTIM_PAUSE_MS): Promise<Sampled> {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    const started = performance.now();
    count(statuses, await request().catch(() => "no answer"));
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return {
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    maxMs: Math.max(0, ...times),
    count: times.length,
    statuses,
  };
}

/** The attacker's loops, each sending its next request as soon as its last one is answered, until stopped. */
function unleash(attack: () => Promise<number>, attackers: number): { stop: () => Promise<Record<string, number>> } {
  let running = true;
  const statuses: Record<string, number> = {};
  const loops = Array.from({ length: attackers }, async () => {
    while (running) count(statuses, await attack().catch(() => "no answer"));
  });
  return {
    async stop() {
      running = false;
      await Promise.race([Promise.all(loops), new Promise((resolve) => setTimeout(resolve, DRAIN_MS))]);
      return statuses;
    },
  };
}

async function measure(
  neighbour: Neighbour,
  context: NeighbourContext,
  durations: { quietMs: number; noisyMs: number },
  targetOf: (quiet: Sampled) => number,
  log: (line: string) => void,
): Promise<NoisyFigures> {
  log(`noisy: ${neighbour.resource}: preparing`);
  const prepared = await neighbour.prepare(context);
  // Once before timing: the victim's first request warms what any first request warms.
  await prepared.victim();
  const quiet = await sample(prepared.victim, durations.quietMs, prepared.victimPauseMs);
  log(`noisy: ${neighbour.resource}: quiet p99 ${fmt(quiet.p99Ms)} ms; ${prepared.attackers} attackers`);
  const attack = unleash(prepared.attack, prepared.attackers);
  await new Promise((resolve) => setTimeout(resolve, RAMP_MS));
  const noisy = await sample(prepared.victim, durations.noisyMs, prepared.victimPauseMs);
  const attackStatuses = await attack.stop();
  log(`noisy: ${neighbour.resource}: noisy p99 ${fmt(noisy.p99Ms)} ms; attacker ${JSON.stringify(attackStatuses)}`);
  return {
    resource: neighbour.resource,
    attacker: neighbour.attacker,
    victim: neighbour.victim,
    quiet,
    noisy,
    attackStatuses,
    targetMs: targetOf(quiet),
  };
}

const statusText = (statuses: Record<string, number>): string =>
  Object.entries(statuses)
    .map(([status, n]) => `${status}×${n}`)
    .join(" ");

function noisyRow(f: NoisyFigures, taskLimitMs: number): Row {
  const failed = Object.keys(f.noisy.statuses).some((status) => !(Number(status) < 400));
  return {
    figure: `noisy neighbour, ${f.resource}: ${f.attacker}; timed: ${f.victim}`,
    value: `victim p99 ${fmt(f.noisy.p99Ms)} ms, p50 ${fmt(f.noisy.p50Ms)} ms (${f.noisy.count}: ${statusText(f.noisy.statuses)}); attacker ${statusText(f.attackStatuses)}`,
    reference: `quiet p99 ${fmt(f.quiet.p99Ms)} ms, p50 ${fmt(f.quiet.p50Ms)} ms (${f.quiet.count})`,
    ratio: `${fmt(f.noisy.p99Ms / Math.max(1, f.quiet.p99Ms), 1)}× quiet p99`,
    target: `p99 ≤ 2× quiet + ${fmt(taskLimitMs)} ms = ${fmt(f.targetMs)} ms, victim answered`,
    verdict: verdict(!failed && f.noisy.p99Ms <= f.targetMs),
  };
}

/** The searcher and a workspace of 10,000 pages of prose, written to the log before the server starts. */
async function seedSearcher(dataDir: string): Promise<{ id: string; email: string }> {
  const store = new SqliteEventStore(join(dataDir, "events.sqlite"), { groupCommit: true });
  const id = userIdSchema.parse(randomUUID());
  const email = `searcher-${id.slice(0, 8)}@noisy.example`;
  const metadata = { actorId: id, correlationId: randomUUID(), now: new Date() };
  await store.append(
    `email-${email}`,
    toNewEvents([{ type: "EmailReserved", data: { email, userId: id } }], metadata),
    "no_stream",
  );
  await store.append(
    `user-${id}`,
    toNewEvents([{ type: "UserRegistered", data: { userId: id, email, name: "searcher", image: null } }], metadata),
    "no_stream",
  );
  for (let from = 0; from < SEARCH_PAGES; from += 1_000) {
    await Promise.all(
      Array.from({ length: Math.min(1_000, SEARCH_PAGES - from) }, (_, offset) => {
        const pageId = pageIdSchema.parse(randomUUID());
        const data = {
          pageId,
          ownerId: id,
          parentId: null,
          title: `Quarterly plan ${from + offset}`,
          icon: null,
          markdown: PROSE.repeat(3),
        };
        return store.append(`page-${pageId}`, toNewEvents([{ type: "PageCreated", data }], metadata), "no_stream");
      }),
    );
  }
  await store.close();
  return { id, email };
}

export async function benchNoisy(options: {
  secret: string;
  quick: boolean;
  log: (line: string) => void;
}): Promise<void> {
  const { log, secret } = options;
  const started = Date.now();
  const dataDir = await mkdtemp(join(tmpdir(), "workspace-bench-noisy-"));
  const taskLimitMs = options.quick ? 3_000 : 10_000;
  const durations = options.quick ? { quietMs: 3_000, noisyMs: 6_000 } : { quietMs: 10_000, noisyMs: 20_000 };
  try {
    log(`noisy: seeding the searcher's ${fmt(SEARCH_PAGES)} pages`);
    const seeded = await seedSearcher(dataDir);
    const env = {
      DATA_DIR: dataDir,
      AUTH_SESSION_SECRET: secret,
      LOG_LEVEL: "warn",
      WORKER_TASK_TIME_LIMIT_MS: String(taskLimitMs),
      ...DEFAULT_RATE_LIMITS,
    };
    const server = await startChild("services/all-in-one.ts", env, "/readyz");
    try {
      const cookie = `app-auth.session_token=${await mintSession(secret, { sub: seeded.id, email: seeded.email, name: "searcher" })}`;
      for (const deadline = Date.now() + 600_000; ;) {
        const found = await fetch(
          `${server.url}/api/v1/pages/resolve?title=${encodeURIComponent(`Quarterly plan ${SEARCH_PAGES - 1}`)}`,
          { headers: { cookie } },
        );
        if (found.status === 200) break;
        if (Date.now() > deadline) throw new Error("the searcher's pages were not projected in time");
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const token = await fetch(`${server.url}/api/v1/tokens`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ name: "searcher", scopes: ["pages:read"] }),
      });
      const searcher: Caller = {
        id: seeded.id,
        email: seeded.email,
        cookie,
        token: String(((await token.json()) as { token?: unknown }).token),
      };
      const context: NeighbourContext = { url: server.url, secret, searcher, quick: options.quick };
      const figures: NoisyFigures[] = [];
      const rows: Row[] = [];
      for (const neighbour of NEIGHBOURS) {
        try {
          const measured = await measure(neighbour, context, durations, (quiet) => 2 * quiet.p99Ms + taskLimitMs, log);
          figures.push(measured);
          rows.push(noisyRow(measured, taskLimitMs));
        } catch (error) {
          log(
            `noisy: ${neighbour.resource} could not be measured: ${error instanceof Error ? error.message : String(error)}`,
          );
          rows.push({
            figure: `noisy neighbour, ${neighbour.resource}`,
            value: "not measured (see the log)",
            reference: "—",
            ratio: "—",
            target: "—",
            verdict: "MISSED",
          });
        }
      }
      const peakMb = server.memory().peakMb;
      process.stdout.write(
        `\nnoisy-neighbour rows in ${fmt((Date.now() - started) / 1000)} s (task time limit ${fmt(taskLimitMs)} ms; server peak RSS ${fmt(peakMb)} MB)\n\n${renderTable(rows)}\n`,
      );
      writeResults(
        `-noisy${options.quick ? "-quick" : ""}`,
        { taskLimitMs, durations, searchPages: SEARCH_PAGES, figures, rows, peakMb },
        log,
      );
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
