// diffPageVersions: the change between two versions of a page, computed in a worker thread so that a diff of
// two large, very different documents never holds the event loop. Each diff runs in a worker of its own with a
// heap limit and a time limit; past either, or past the edit-length bound jsdiff checks as it goes, the answer
// is 422 diff_too_large. At most `workers` diffs run at once; the others wait their turn.
import { createRequire } from "node:module";
import { extname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import { diffOutcomeSchema, type DiffOutcome, type PageDiff, type PageVersion } from "./page-diff.compute.ts";

export interface DiffLimits {
  /** Edit operations (lines added plus removed, roughly) past which the diff is refused. */
  readonly maxEditLength: number;
  /** A diff may take this long in its worker. */
  readonly timeLimitMs: number;
  /** Its worker's heap may grow to this many MB. */
  readonly workerMemoryMb: number;
  /** Diffs computed at once; more wait. */
  readonly workers: number;
  /** Unchanged lines shown around each change. */
  readonly context: number;
}

export const DEFAULT_DIFF_LIMITS: DiffLimits = { maxEditLength: 5_000, timeLimitMs: 5_000, workerMemoryMb: 256, workers: 2, context: 3 };

const tooLarge = (): AppError =>
  new AppError("diff_too_large", "the two versions differ too much to compare here; compare closer instants, or read both versions with ?at=");

// As in the import's note rewriter: the worker has this module's extension (`.js` once compiled, `.ts` under
// tsx), and Node 20 does not apply tsx's loader to a worker's entry, so a `.ts` worker starts through tsx's API.
const workerUrl = new URL(`./page-diff.worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
function startWorker(memoryMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: memoryMb };
  if (!workerUrl.pathname.endsWith(".ts")) return new Worker(workerUrl, { resourceLimits });
  const tsxApi = new URL("dist/esm/api/index.mjs", pathToFileURL(createRequire(import.meta.url).resolve("tsx/package.json"))).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(workerUrl.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}

const readyMessage = z.object({ kind: z.literal("ready") });

let running = 0;
const waiting: Array<() => void> = [];

async function turn(workers: number): Promise<() => void> {
  if (running >= workers) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  return () => {
    running -= 1;
    waiting.shift()?.();
  };
}

function runInWorker(from: PageVersion, to: PageVersion, limits: DiffLimits): Promise<DiffOutcome> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(limits.workerMemoryMb);
    let settled = false;
    const finish = (outcome: DiffOutcome | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: "too_large" }), limits.timeLimitMs);
    worker.on("message", (data: unknown) => {
      if (readyMessage.safeParse(data).success) {
        worker.postMessage({ from, to, maxEditLength: limits.maxEditLength, context: limits.context });
        return;
      }
      const outcome = diffOutcomeSchema.safeParse(data);
      finish(outcome.success ? outcome.data : new Error("the diff worker answered something else than a diff"));
    });
    // A worker out of its heap: the diff is too large. Any other failure is a bug, reported as one.
    worker.on("error", (error: Error & { code?: string }) => finish(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? { kind: "too_large" } : error));
    worker.on("exit", () => finish(new Error("the diff worker stopped before answering")));
  });
}

/** The diff between two versions, with its unified text; 422 diff_too_large past the limits. */
export async function diffPageVersions(from: PageVersion, to: PageVersion, limits: DiffLimits = DEFAULT_DIFF_LIMITS): Promise<{ diff: PageDiff; unified: string }> {
  const release = await turn(limits.workers);
  try {
    const outcome = await runInWorker(from, to, limits);
    if (outcome.kind === "too_large") throw tooLarge();
    return { diff: outcome.diff, unified: outcome.unified };
  } finally {
    release();
  }
}
