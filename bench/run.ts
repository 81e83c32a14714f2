// `npm run bench [-- --quick] [--profile] [--no-peer] [--only loop|worst|attachments|erasure|noisy] [--pages N] [--duration S] [--connections C] [--replay-events N] [--append-events N]`
// Seeds a fresh DATA_DIR, starts the all-in-one server as its own process, drives it with autocannon from
// this process, measures the store, projection and replay figures in process, prints a table and writes
// bench/results/<date>.json. Every figure is set beside a reference measured in the same run. The table's
// sections are in table/, called here in order.
import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { attachmentRows, benchAttachmentTransfer } from "./attachments.ts";
import { benchErasureCostOnly } from "./erasure-cost.ts";
import { benchEventLoopOnly } from "./event-loop.ts";
import { benchNoisy } from "./noisy/noisy-table.ts";
import { parseBenchOptions } from "./options.ts";
import { fmt, renderTable, verdict, writeResults, type Row } from "./report.ts";
import { freshServerRows } from "./table/fresh-server-rows.ts";
import { httpRows } from "./table/http-rows.ts";
import { serveSeededWorkspace } from "./table/served-workspace.ts";
import { storeRows } from "./table/store-rows.ts";
import type { TableRun } from "./table/table-run.ts";
import { benchWorst } from "./worst/worst-table.ts";

const SECRET = "benchmark-session-secret-long-enough-for-hs256";
const options = parseBenchOptions(process.argv.slice(2));
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const started = Date.now();
const machine = { cores: cpus().length, cpu: cpus()[0]?.model ?? "unknown", node: process.version };
log(`${machine.cores} cores (${machine.cpu}), Node ${machine.node}; ${JSON.stringify(options)}`);
if (options.only === "loop") {
  await benchEventLoopOnly({ secret: SECRET, quick: options.quick, log });
  process.exit(0);
}
if (options.only === "attachments") {
  const figures = await benchAttachmentTransfer({ secret: SECRET, log });
  const rows = attachmentRows(figures);
  process.stdout.write(`\nattachment rows alone in ${fmt((Date.now() - started) / 1000)} s\n\n${renderTable(rows)}\n`);
  writeResults("-attachments", { machine, attachments: figures, rows }, log);
  process.exit(0);
}
if (options.only === "erasure") {
  await benchErasureCostOnly({ ...options, log });
  process.exit(0);
}
if (options.only === "noisy") {
  await benchNoisy({ secret: SECRET, quick: options.quick, log });
  process.exit(0);
}
if (options.only === "worst") {
  await benchWorst({ secret: SECRET, quick: options.quick, profile: options.profile, log });
  process.exit(0);
}

const workDir = await mkdtemp(join(tmpdir(), "workspace-bench-"));
const dataDir = join(workDir, "data");
mkdirSync(dataDir);
const rows: Row[] = [];
const run: TableRun = { options, secret: SECRET, workDir, dataDir, log, rows, raw: { machine, options } };

try {
  const served = await serveSeededWorkspace(run);
  const http = await httpRows(run, served);
  await storeRows(run, http);
  await freshServerRows(run);
  rows.push({
    figure: `peak RSS of the server (${fmt(options.pages)} pages)`,
    value: `${fmt(http.memory.peakMb)} MB (now ${fmt(http.memory.currentMb)} MB)`,
    reference: "—",
    ratio: "—",
    target: "≤ 300 MB",
    verdict: verdict(http.memory.peakMb <= 300),
  });

  const table = renderTable(rows);
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(
    `\n${machine.cores} cores, Node ${machine.node}, ${options.quick ? "quick" : "full"} run in ${fmt(seconds)} s\n\n${table}\n`,
  );
  writeResults(options.quick ? "-quick" : "", { ...run.raw, rows, seconds }, log);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
