// `npx tsx bench/list-profile.ts [--pages N] [--seconds S] [--connections C] [--roots DIR,DIR] [--rounds R] [--data DIR] [--path P]`
// Where a page list's CPU goes. Seeds N pages (the benchmark's shape: the reader holds 20 folder grants and 3
// workspace roles), then for each round and each repository root (default: this one; give two checkouts to set
// a change beside what it changes) starts that root's all-in-one server under `--cpu-prof` over the same data,
// drives `GET /pages?limit=50` as the reader after a warm-up, stops the server and prints the profile's shares
// for the loaded window (bench/cpu-profile-summary.ts), with `GET /me` driven right after as a reference.
// `--path P` drives another route in its place (`/me`, `/pages/resolve?title=...`: the fixed cost of a request).
// `--data DIR` keeps the seeded data there and reuses it on the next run.
import Database from "better-sqlite3";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { SqliteEventStore } from "../shared/adapters/sqlite/sqlite.event-store.ts";
import { renderSummary, summariseProfile } from "./cpu-profile-summary.ts";
import { load } from "./http-load.ts";
import { startChild } from "./processes.ts";
import { grantReaderAccess, sessionCookie } from "./reader-access.ts";
import { fmt } from "./report.ts";
import { seedWorkspace, type Seeded } from "./seed.ts";

const SECRET = "benchmark-session-secret-long-enough-for-hs256";
const log = (line: string) => process.stderr.write(`[list-profile] ${line}\n`);

const { values } = parseArgs({
  options: {
    pages: { type: "string", default: "20000" },
    seconds: { type: "string", default: "15" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    roots: { type: "string", default: "." },
    rounds: { type: "string", default: "1" },
    data: { type: "string" },
    path: { type: "string", default: "/pages?limit=50" },
  },
});
const options = z
  .object({
    pages: z.coerce.number().int().min(100),
    seconds: z.coerce.number().int().min(1).max(120),
    warmup: z.coerce.number().int().min(1).max(60),
    connections: z.coerce.number().int().min(1).max(500),
    roots: z.string().transform((roots) => roots.split(",").map((root) => resolve(root))),
    rounds: z.coerce.number().int().min(1).max(10),
    data: z.string().optional(),
    path: z.string().startsWith("/"),
  })
  .parse(values);

const seedUser = z.object({ id: z.string(), email: z.string(), name: z.string() });
/** What a seeded data directory remembers of its users, so that a later run can reuse it. */
const seededFile = z.object({ reader: seedUser, owners: z.array(seedUser) });

const workDir = options.data ?? (await mkdtemp(join(tmpdir(), "list-profile-")));
const dataDir = join(workDir, "data");
const profileDir = join(workDir, "profiles");
const env = { DATA_DIR: dataDir, AUTH_SESSION_SECRET: SECRET, LOG_LEVEL: "warn" };
const entry = (root: string) => join(root, "services/all-in-one.ts");

async function seed(): Promise<z.infer<typeof seededFile>> {
  const remembered = join(workDir, "seeded.json");
  if (existsSync(remembered)) return seededFile.parse(JSON.parse(readFileSync(remembered, "utf8")));
  mkdirSync(dataDir, { recursive: true });
  log(`seeding ${fmt(options.pages)} pages in ${dataDir}`);
  const store = new SqliteEventStore(join(dataDir, "events.sqlite"));
  const seeded: Seeded = await seedWorkspace(store, options.pages);
  await store.close();
  const server = await startChild(entry(options.roots[0] ?? "."), env, "/readyz");
  const applied = await grantReaderAccess(`${server.url}/api/v1`, SECRET, seeded);
  await server.stop();
  // The search index merged as an idle server leaves it: its background merge would run in the profiled window.
  const readModels = new Database(join(dataDir, "read-models.sqlite"));
  readModels.exec("INSERT INTO page_search (page_search) VALUES ('optimize')");
  readModels.close();
  log(`seeded and projected; the reader holds ${applied} of 23 grants and roles`);
  const users = { reader: seeded.reader, owners: seeded.owners };
  writeFileSync(remembered, JSON.stringify(users));
  return users;
}

interface Figures {
  readonly listRate: number;
  readonly meRate: number;
  /** Requests answered per second of CPU the server used in the loaded window (the shared machine's fair measure). */
  readonly perCpuSecond: number;
}

/** CPU seconds a process has used (user and system), from /proc (Linux; its clock ticks are 1/100 s). */
function cpuSecondsOf(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function profileOnce(root: string, cookie: string): Promise<Figures> {
  mkdirSync(profileDir, { recursive: true });
  const spawned = performance.now();
  const server = await startChild(entry(root), env, "/readyz", ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]);
  const api = `${server.url}/api/v1`;
  const headers = { cookie };
  const first = await fetch(`${api}${options.path}`, { headers });
  if (!first.ok) throw new Error(`GET ${options.path} answered ${first.status}: ${await first.text()}`);
  const answered = `${(await first.arrayBuffer()).byteLength} bytes`;
  const drive = (path: string, seconds: number) =>
    load({ url: `${api}${path}`, connections: options.connections, durationSeconds: seconds, headers });
  await drive(options.path, options.warmup);
  const fromMs = performance.now() - spawned;
  const cpuBefore = cpuSecondsOf(server.process.pid);
  const list = await drive(options.path, options.seconds);
  const cpuUsed = cpuSecondsOf(server.process.pid) - cpuBefore;
  const toMs = performance.now() - spawned;
  const me = await drive("/me", Math.min(5, options.seconds));
  const pid = server.process.pid;
  await server.stop();
  const file = readdirSync(profileDir).find((name) => name.includes(`.${pid}.0.`));
  if (!file) throw new Error(`no profile of process ${pid} in ${profileDir}`);
  const summary = summariseProfile(JSON.parse(readFileSync(join(profileDir, file), "utf8")), { fromMs, toMs });
  const perCpuSecond = (list.requestsPerSecond * ((toMs - fromMs) / 1000)) / cpuUsed;
  process.stdout.write(
    `\n== ${root}: GET ${options.path} (${answered}) ${fmt(list.requestsPerSecond)} req/s, p99 ${fmt(list.p99Ms)} ms;` +
      ` ${fmt(perCpuSecond)} per CPU-second of the server;` +
      ` GET /me ${fmt(me.requestsPerSecond)} req/s after it (${fmt(list.requestsPerSecond / me.requestsPerSecond, 2)}× /me)\n` +
      `profile ${join(profileDir, file)}\n\n${renderSummary(summary)}\n`,
  );
  return { listRate: list.requestsPerSecond, meRate: me.requestsPerSecond, perCpuSecond };
}

try {
  const users = await seed();
  const cookie = await sessionCookie(SECRET, users.reader);
  const rates = new Map<string, Figures[]>();
  for (let round = 0; round < options.rounds; round += 1) {
    for (const root of options.roots) {
      log(`round ${round + 1}: ${root}`);
      const figures = await profileOnce(root, cookie);
      rates.set(root, [...(rates.get(root) ?? []), figures]);
    }
  }
  process.stdout.write(
    `\nGET ${options.path} by round (under the profiler, on a shared machine: compare within a round):\n`,
  );
  for (const [root, figures] of rates) {
    const rounds = figures.map(
      (f) => `${fmt(f.listRate)} req/s, ${fmt(f.perCpuSecond)}/CPU-s (${fmt(f.listRate / f.meRate, 2)}× /me)`,
    );
    process.stdout.write(`  ${root}: ${rounds.join(", ")}\n`);
  }
} finally {
  if (options.data === undefined) await rm(workDir, { recursive: true, force: true });
}
