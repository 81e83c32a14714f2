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

/** Drives `url` with autocannon for the run's duration and connections. */
export function loadRunner(run: TableRun): LoadRun {
  const { options, log } = run;
  return (label, url, extra = {}) => {
    log(`load: ${label} for ${options.duration} s at ${options.connections} connections`);
    return load({ url, connections: options.connections, durationSeconds: options.duration, ...extra });
  };
}
