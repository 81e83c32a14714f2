// Child processes for the benchmark: the server under test and the ceiling server, on ports of their own.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { freePort } from "../deploy/free-port.ts";

export interface Child {
  readonly url: string;
  readonly process: ChildProcess;
  /** Peak and current resident set size in MB, from /proc. */
  memory(): { peakMb: number; currentMb: number };
  stop(): Promise<void>;
}

/**
 * One client drives thousands of requests a second here, far past the default per-caller budgets: the limits
 * stay on (their cost is part of every figure) but with quotas no run reaches. The same for the worker pool's
 * tasks per caller: one client's 50 connections of searches (ranked in the pool) each wait their turn rather
 * than being refused past four. The noisy-neighbour rows set the defaults back (bench/noisy/noisy-table.ts).
 */
const UNREACHED_RATE_LIMITS = {
  ...Object.fromEntries(
    ["READ", "WRITE", "SEARCH", "UPLOAD", "IMPORT", "SHARING"].map((rateClass) => [
      `RATE_LIMIT_${rateClass}`,
      "999999999/1m",
    ]),
  ),
  WORKER_TASKS_PER_CALLER: "10000",
};

/**
 * The heap budget `npm start` and the image give the services (package.json, Dockerfile): without it V8 sizes its
 * heap for the machine's memory and lets it grow to about four times what is live before collecting
 * (docs/operations/embedded.md, "Memory"), so the benchmark runs its servers the same way.
 */
const SERVICE_NODE_ARGS = ["--max-old-space-size=1024"];

/** Starts a TypeScript entry with PORT set and waits until `readyPath` answers 200. */
export async function startChild(
  entry: string,
  env: Record<string, string>,
  readyPath: string,
  nodeArgs: string[] = [],
  timeoutMs = 600_000,
  args: string[] = [],
): Promise<Child> {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVICE_NODE_ARGS, ...nodeArgs, "--import", "tsx", entry, ...args], {
    env: { ...process.env, ...UNREACHED_RATE_LIMITS, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    const ok = await fetch(`${url}${readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`${entry} was not ready in time`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    process: child,
    memory() {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      return { peakMb: kb("VmHWM") / 1024, currentMb: kb("VmRSS") / 1024 };
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
