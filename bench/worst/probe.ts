// The event-loop probe beside every worst-case row: the server's own loop delay (prom-client's
// monitorEventLoopDelay histogram, read from /metrics, reset by each scrape) and, from outside, how long /healthz
// takes to answer while the operation runs (one probe every 10 ms), which is what any other caller waits.
import type { Child } from "../processes.ts";

export interface LoopFigures {
  /** Server-side loop delay over the row, from the histogram (10 ms resolution: an idle loop reads about 10). */
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
  /** /healthz answer times seen by the probe during the row. */
  readonly probeP99Ms: number;
  readonly probeMaxMs: number;
  readonly probes: number;
}

const PROBE_INTERVAL_MS = 10;
/** Several ticks of the histogram's 10 ms sampling timer, so a block at the end of the row is recorded. */
const SETTLE_MS = 200;

export async function scrapeLoopDelay(server: Child): Promise<{ p99Ms: number; maxMs: number }> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const gauge = (name: string): number => {
    const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, "m").exec(text);
    if (!match?.[1]) throw new Error(`/metrics has no ${name}`);
    return Number(match[1]) * 1000;
  };
  return { p99Ms: gauge("nodejs_eventloop_lag_p99_seconds"), maxMs: gauge("nodejs_eventloop_lag_max_seconds") };
}

export const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

/** Runs `work` with the probe beside it; the loop figures cover exactly that stretch (plus the settle time). */
export async function withProbe<T>(server: Child, work: () => Promise<T>): Promise<{ result: T; loop: LoopFigures }> {
  await scrapeLoopDelay(server);
  const times: number[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${server.url}/healthz`).then(
        (r) => r.arrayBuffer(),
        () => undefined,
      );
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
    }
  })();
  try {
    const result = await work();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return { result, loop: await figures() };
  } finally {
    running = false;
    await probe;
  }

  async function figures(): Promise<LoopFigures> {
    const loop = await scrapeLoopDelay(server);
    return {
      loopP99Ms: loop.p99Ms,
      loopMaxMs: loop.maxMs,
      probeP99Ms: percentile(times, 99),
      probeMaxMs: Math.max(0, ...times),
      probes: times.length,
    };
  }
}
