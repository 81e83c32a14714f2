// What every section of the main table (`npm run bench`) is given: the options, the session secret, a scratch
// folder, the log, and the rows and figures it adds to, in the order the runner calls the sections.
import { load, type LoadFigures } from "../http-load.ts";
import type { BenchOptions } from "../options.ts";
import type { Row } from "../report.ts";

export interface TableRun {
  readonly options: BenchOptions;
  readonly secret: string;
  /** Scratch space of the run; `dataDir` inside it holds the seeded workspace. */
  readonly workDir: string;
  readonly dataDir: string;
  readonly log: (line: string) => void;
  /** The table's rows, in the order the sections add them. */
  readonly rows: Row[];
  /** The figures behind the rows, written to the results file. */
  readonly raw: Record<string, unknown>;
}

type LoadRun = (label: string, url: string, extra?: Partial<Parameters<typeof load>[0]>) => Promise<LoadFigures>;

/**
 * Drives `url` with autocannon for the run's duration and connections, after one request of the same kind has
 * been answered: it warms the route (a worker thread started on first use, for one) and, since one caller's tasks
 * run in turn, waits for whatever the previous row left queued on the server (autocannon closes its connections
 * at the end of a row, but the server finishes the requests it had accepted).
 */
export function loadRunner(run: TableRun): LoadRun {
  const { options, log } = run;
  return async (label, url, extra = {}) => {
    const started = performance.now();
    const warmup = await fetch(url, {
      method: extra.method ?? "GET",
      headers: extra.headers ?? {},
      ...(extra.body === undefined
        ? {}
        : { body: typeof extra.body === "string" ? extra.body : new Uint8Array(extra.body) }),
    });
    await warmup.arrayBuffer();
    log(
      `load: ${label} for ${options.duration} s at ${options.connections} connections (warm-up request: ${warmup.status} in ${Math.round(performance.now() - started)} ms)`,
    );
    return load({ url, connections: options.connections, durationSeconds: options.duration, ...extra });
  };
}
