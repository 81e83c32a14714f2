// `npm run bench -- --only worst`: every operation of the served API reference at its worst documented input
// (operations.ts, against the fixture of fixture.ts), each beside the event-loop probe (probe.ts). The target on
// every row: the probe's /healthz answers p99 < 50 ms and max < 200 ms while the operation runs, i.e. no other
// caller waits on it. An operation with no worst case defined is a row of its own, so the table cannot silently
// miss one.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { startChild, type Child } from "../processes.ts";
import { fmt, renderTable, writeResults, type Row } from "../report.ts";
import { buildWorst, FULL_SIZES, QUICK_SIZES, type Worst, type WorstSizes } from "./fixture.ts";
import type { WorstRequest } from "./cases/worst-case.ts";
import { WORST_CASES } from "./operations.ts";
import { percentile, withProbe, type LoopFigures } from "./probe.ts";

const TARGET_P99_MS = 50;
const TARGET_MAX_MS = 200;
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

const openApi = z.object({ paths: z.record(z.string(), z.record(z.string(), z.unknown())) });

interface WorstFigures {
  readonly key: string;
  readonly input: string;
  readonly iterations: number;
  /** Refusals that are the worst case itself (a wrong password's 401), not failures. */
  readonly expected: readonly number[];
  readonly statuses: Record<string, number>;
  readonly requestP50Ms: number;
  readonly requestMaxMs: number;
  readonly loop: LoopFigures;
}

async function operationsOf(server: Child): Promise<string[]> {
  const document = openApi.parse(await (await fetch(`${server.url}/api/v1/openapi.json`)).json());
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => method in item).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

async function timed(server: Child, request: WorstRequest): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const abort = new AbortController();
  const reply = await fetch(`${server.url}${request.path}`, {
    method: request.method,
    headers: request.headers ?? {},
    ...(request.body === undefined ? {} : { body: request.body }),
    signal: abort.signal,
  });
  if (request.readForMs !== undefined && reply.body) {
    const reader = reply.body.getReader();
    const timer = setTimeout(() => abort.abort(), request.readForMs);
    try {
      for (;;) if ((await reader.read()).done) break;
    } catch {
      // Hung up on purpose after readForMs.
    } finally {
      clearTimeout(timer);
    }
  } else {
    await reply.arrayBuffer();
  }
  return { ms: performance.now() - started, status: reply.status };
}

async function runCase(
  w: Worst,
  key: string,
  iterations: number,
  log: (line: string) => void,
): Promise<WorstFigures | null> {
  const worst = WORST_CASES[key];
  if (!worst) return null;
  const n = Math.min(iterations, worst.maxIterations ?? iterations);
  log(`worst: ${key} × ${n} (${worst.input})`);
  const prepared = worst.prepare ? await worst.prepare(w, n) : Array.from({ length: n }, () => "");
  const { result, loop } = await withProbe(w.server, async () => {
    const times: number[] = [];
    const statuses: Record<string, number> = {};
    for (let i = 0; i < n; i += 1) {
      // Built just before it is sent (untimed): a request may carry what the one before it changed (an ETag).
      const request: WorstRequest = await worst.request(w, prepared[i] ?? "", i);
      const started = performance.now();
      const { ms, status } = await timed(w.server, request).catch((error: unknown) => {
        log(
          `worst: ${key} failed: ${error instanceof Error ? `${error.message} ${error.cause instanceof Error ? error.cause.message : ""}` : String(error)}`,
        );
        return { ms: performance.now() - started, status: "no answer" };
      });
      times.push(ms);
      statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
    }
    return { times, statuses };
  });
  return {
    key,
    input: worst.input,
    iterations: n,
    expected: worst.expected ?? [],
    statuses: result.statuses,
    requestP50Ms: percentile(result.times, 50),
    requestMaxMs: Math.max(...result.times),
    loop,
  };
}

const failedStatuses = (statuses: Record<string, number>, expected: readonly number[]): string[] =>
  Object.entries(statuses)
    .filter(([status]) => !(Number(status) < 400) && !expected.includes(Number(status)))
    .map(([status, count]) => `${status}×${count}`);

function rowOf(figures: WorstFigures, quiet: LoopFigures): Row {
  const failed = failedStatuses(figures.statuses, figures.expected);
  const ok = failed.length === 0 && figures.loop.probeP99Ms < TARGET_P99_MS && figures.loop.probeMaxMs < TARGET_MAX_MS;
  return {
    figure: `${figures.key}: ${figures.input}`,
    value: `request p50 ${fmt(figures.requestP50Ms)} ms, max ${fmt(figures.requestMaxMs)} ms (${figures.iterations}×${failed.length ? `, failed ${failed.join(" ")}` : ""}); probe p99 ${fmt(figures.loop.probeP99Ms, 1)} ms, max ${fmt(figures.loop.probeMaxMs)} ms; loop max ${fmt(figures.loop.loopMaxMs)} ms`,
    reference: `quiet probe p99 ${fmt(quiet.probeP99Ms, 1)} ms, max ${fmt(quiet.probeMaxMs)} ms`,
    ratio: `${fmt(figures.loop.probeMaxMs / Math.max(1, quiet.probeMaxMs), 1)}× quiet max`,
    target: `probe p99 < ${TARGET_P99_MS} ms, max < ${TARGET_MAX_MS} ms`,
    verdict: ok ? "met" : "MISSED",
  };
}

export async function benchWorst(options: {
  secret: string;
  quick: boolean;
  profile?: boolean;
  log: (line: string) => void;
  sizes?: WorstSizes;
  iterations?: number;
}): Promise<void> {
  const { log } = options;
  const started = Date.now();
  const dataDir = await mkdtemp(join(tmpdir(), "workspace-bench-worst-"));
  const profileArgs = options.profile ? ["--cpu-prof", "--cpu-prof-dir=bench/profiles"] : [];
  const server = await startChild(
    "services/all-in-one.ts",
    {
      DATA_DIR: dataDir,
      AUTH_SESSION_SECRET: options.secret,
      LOG_LEVEL: "warn",
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
    },
    "/readyz",
    profileArgs,
  );
  try {
    const sizes = options.sizes ?? (options.quick ? QUICK_SIZES : FULL_SIZES);
    const w = await buildWorst(server, options.secret, sizes, log);
    const quiet = (await withProbe(server, () => new Promise((resolve) => setTimeout(resolve, 2_000)))).loop;
    const iterations = options.iterations ?? (options.quick ? 3 : 10);
    const figures: WorstFigures[] = [];
    const rows: Row[] = [];
    const operations = await operationsOf(server);
    // Then the rows that are not operations of the reference (a second worst case of one, e.g. a fan-out).
    const extra = Object.keys(WORST_CASES).filter((key) => !operations.includes(key));
    for (const key of [...operations, ...extra]) {
      let measured: WorstFigures | null;
      try {
        measured = await runCase(w, key, iterations, log);
      } catch (error) {
        log(`worst: ${key} could not be prepared: ${error instanceof Error ? error.message : String(error)}`);
        rows.push({
          figure: key,
          value: "not measured: its preparation failed (see the log)",
          reference: "—",
          ratio: "—",
          target: "—",
          verdict: "MISSED",
        });
        continue;
      }
      if (measured === null) {
        rows.push({
          figure: key,
          value: "no worst case defined in bench/worst/operations.ts",
          reference: "—",
          ratio: "—",
          target: "—",
          verdict: "not built",
        });
        continue;
      }
      figures.push(measured);
      rows.push(rowOf(measured, quiet));
    }
    const peakMb = server.memory().peakMb;
    process.stdout.write(
      `\nworst-case table in ${fmt((Date.now() - started) / 1000)} s (${JSON.stringify(sizes)}; server peak RSS ${fmt(peakMb)} MB)\n\n${renderTable(rows)}\n`,
    );
    writeResults(`-worst${options.quick ? "-quick" : ""}`, { sizes, quiet, figures, rows, peakMb }, log);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
