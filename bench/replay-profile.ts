// `node --import tsx bench/replay-profile.ts [--events N] [--roots DIR,DIR] [--rounds R] [--data DIR]`
// Where a replay's CPU goes. Seeds a log of N events (the replay row's mix: one PageCreated then nine
// PageRenamed per page), then for each round and each repository root (default: this one; give two checkouts to
// set a change beside what it changes, alternating) replays it into an empty read store with that root's
// `rebuildReadModels` in a child process under `--cpu-prof`, in batches of 5,000 as the benchmark does, and prints
// the profile's shares for the replay alone (bench/cpu-profile-summary.ts), its rate and its rate per CPU-second
// of the child (the profiler's own cost included, alike on both sides). `--data DIR` keeps the seeded log there
// and reuses it on the next run. On a shared machine the rate per second says little: compare shares.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { pino } from "pino";
import { z } from "zod";
import { SqliteEventStore } from "../shared/adapters/sqlite/sqlite.event-store.ts";
import { renderSummary, summariseProfile } from "./cpu-profile-summary.ts";
import { seedReplayHistory } from "./projection.ts";

const log = (line: string) => process.stderr.write(`[replay-profile] ${line}\n`);

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "50000" },
    roots: { type: "string", default: "." },
    rounds: { type: "string", default: "1" },
    data: { type: "string" },
    // internal: the child's side, replaying with one root's code
    child: { type: "string" },
  },
});
const options = z
  .object({
    events: z.coerce.number().int().min(10),
    roots: z.string().transform((roots) => roots.split(",").map((root) => resolve(root))),
    rounds: z.coerce.number().int().min(1).max(10),
    data: z.string().optional(),
    child: z.string().optional(),
  })
  .parse(values);

const isFunction = (value: unknown) => typeof value === "function";
type Constructor = new (file: string) => { close(): Promise<void> };
const constructor = z.custom<Constructor>(isFunction);
const rebuildModule = z.object({
  rebuildReadModels: z.custom<(options: Record<string, unknown>) => Promise<unknown>>(isFunction),
});
const storeModule = z.object({ SqliteProjectionStore: constructor });
const eventStoreModule = z.object({ SqliteEventStore: constructor });
const replayResult = z.object({ applied: z.number(), seconds: z.number() });
/** The child's report: the replay's result and its window in the profile (ms since the process started). */
const childReport = replayResult.extend({ fromMs: z.number(), toMs: z.number(), cpuSeconds: z.number() });

/** In the child: replays the log in `dir` into a fresh read store with the code under `root`. */
async function replayWith(root: string, dir: string): Promise<void> {
  const load = (path: string): Promise<unknown> => import(pathToFileURL(join(root, path)).href);
  const { rebuildReadModels } = rebuildModule.parse(await load("services/projector/rebuild.ts"));
  const { SqliteProjectionStore } = storeModule.parse(await load("shared/adapters/sqlite/sqlite.read-store.ts"));
  const { SqliteEventStore: RootEventStore } = eventStoreModule.parse(
    await load("shared/adapters/sqlite/sqlite.event-store.ts"),
  );
  const readFile = join(dir, "replay-read.sqlite");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${readFile}${suffix}`, { force: true });
  // The modules are the root's own, typed here only as far as the checks above go.
  const eventStore = new RootEventStore(join(dir, "replay-events.sqlite"));
  const store = new SqliteProjectionStore(readFile);
  const fromMs = performance.now();
  const cpuBefore = process.cpuUsage();
  const result = replayResult.parse(
    await rebuildReadModels({ eventStore, store, logger: pino({ level: "silent" }), batchSize: 5_000 }),
  );
  const toMs = performance.now();
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  await store.close();
  await eventStore.close();
  process.stdout.write(`${JSON.stringify({ ...result, fromMs, toMs, cpuSeconds })}\n`);
}

async function main(): Promise<void> {
  const dir = options.data ?? (await mkdtemp(join(tmpdir(), "replay-profile-")));
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, "replay-events.sqlite"))) {
    const eventStore = new SqliteEventStore(join(dir, "replay-events.sqlite"));
    await seedReplayHistory(eventStore, options.events, log);
    await eventStore.close();
  }
  for (let round = 1; round <= options.rounds; round += 1) {
    for (const root of options.roots) {
      const profileDir = join(dir, `cpu-${round}-${options.roots.indexOf(root)}`);
      rmSync(profileDir, { recursive: true, force: true });
      const child = spawnSync(
        process.execPath,
        [
          "--cpu-prof",
          `--cpu-prof-dir=${profileDir}`,
          "--import",
          "tsx",
          import.meta.filename,
          "--child",
          root,
          "--data",
          dir,
        ],
        { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
      );
      if (child.status !== 0) throw new Error(`the replay with ${root} failed (${child.status})`);
      const report = childReport.parse(JSON.parse(child.stdout.trim().split("\n").pop() ?? "{}"));
      const { applied, seconds, cpuSeconds } = report;
      const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
      if (!file) throw new Error(`no profile in ${profileDir}`);
      const summary = summariseProfile(JSON.parse(readFileSync(join(profileDir, file), "utf8")), report, 30);
      process.stdout.write(
        `\n=== round ${round}, ${root}: ${applied.toLocaleString()} events in ${seconds.toFixed(2)} s, ` +
          `${Math.round(applied / seconds).toLocaleString()} events/s, ${Math.round(applied / cpuSeconds).toLocaleString()} events/CPU-s\n${renderSummary(summary)}\n`,
      );
    }
  }
}

if (options.child) await replayWith(options.child, options.data ?? ".");
else await main();
