// `npm run bench:history [-- --duration S] [--seconds S] [--profile]`: the history figures on their own, beside the HTTP
// ceiling measured in the same run: GET /pages/{id}?at= and GET /pages/{id}/history?limit=1 of a page with 1,000
// revisions, and the change feed's
// delivery latency at 1,000 writes/s to 100 open feeds. Writes bench/results/<date>-history.json; `--profile`
// starts the server under `--cpu-prof` and leaves its profile in bench/profiles/.
import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { SqliteEventStore } from "../shared/adapters/sqlite/sqlite.event-store.ts";
import { mintSession } from "../shared/auth/session-verifier.ts";
import { userIdSchema } from "../shared/kernel/ids.ts";
import { benchChangeFeed, seedRevisedPage } from "./history.ts";
import { load } from "./http-load.ts";
import { startChild } from "./processes.ts";
import { historyRows } from "./history-rows.ts";
import { renderTable, writeResults } from "./report.ts";

const SECRET = "benchmark-session-secret-long-enough-for-hs256";
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    duration: { type: "string" },
    seconds: { type: "string" },
    connections: { type: "string" },
    profile: { type: "boolean" },
  },
});
const options = z
  .object({
    duration: z.coerce.number().int().min(1).max(120),
    seconds: z.coerce.number().int().min(1).max(120),
    connections: z.coerce.number().int().min(1).max(500),
  })
  .parse({ duration: values.duration ?? 10, seconds: values.seconds ?? 10, connections: values.connections ?? 50 });
const log = (line: string) => process.stderr.write(`[bench:history] ${line}\n`);
const machine = { cores: cpus().length, cpu: cpus()[0]?.model ?? "unknown", node: process.version };
const workDir = await mkdtemp(join(tmpdir(), "history-bench-"));
try {
  const dataDir = join(workDir, "data");
  mkdirSync(dataDir);
  const ownerId = userIdSchema.parse(crypto.randomUUID());
  const seedStore = new SqliteEventStore(join(dataDir, "events.sqlite"));
  const { pageId, midPosition } = await seedRevisedPage(seedStore, ownerId, 1_000);
  await seedStore.close();
  const profileArgs = values.profile === true ? ["--cpu-prof", "--cpu-prof-dir=bench/profiles"] : [];
  const server = await startChild(
    "services/all-in-one.ts",
    { DATA_DIR: dataDir, AUTH_SESSION_SECRET: SECRET, LOG_LEVEL: "warn" },
    "/readyz",
    profileArgs,
  );
  const ceilingServer = await startChild("bench/ceiling-server.ts", {}, "/constant");
  const cookie = `app-auth.session_token=${await mintSession(SECRET, { sub: ownerId, email: "bench-owner@example.com", name: "Bench owner" })}`;
  const warm = await fetch(`${server.url}/api/v1/pages/${pageId}?at=${midPosition}`, { headers: { cookie } });
  log(`GET ?at= answers ${warm.status}`);
  log(`load: ceiling for ${options.duration} s`);
  const ceiling = await load({
    url: `${ceilingServer.url}/constant`,
    connections: options.connections,
    durationSeconds: options.duration,
  });
  await ceilingServer.stop();
  log(`load: GET /pages/{id}?at= for ${options.duration} s`);
  const readAt = await load({
    url: `${server.url}/api/v1/pages/${pageId}?at=${midPosition}`,
    connections: options.connections,
    durationSeconds: options.duration,
    headers: { cookie },
  });
  log(`load: GET /pages/{id}/history?limit=1 for ${options.duration} s`);
  const historyPage = await load({
    url: `${server.url}/api/v1/pages/${pageId}/history?limit=1`,
    connections: options.connections,
    durationSeconds: options.duration,
    headers: { cookie },
  });
  await server.stop();
  log(`change feed: 1,000 writes/s for ${options.seconds} s to 100 feeds`);
  const feed = await benchChangeFeed(workDir, 1_000, options.seconds, 100);
  const rows = historyRows({ ceiling, readAt, feed, historyPage });
  process.stdout.write(`\n${machine.cores} cores, Node ${machine.node}\n\n${renderTable(rows)}\n`);
  writeResults("-history", { machine, options, ceiling, readAt, historyPage, feed, rows }, log);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
