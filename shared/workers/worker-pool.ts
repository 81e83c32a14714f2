// The process's one pool of worker threads for CPU-heavy work on users' data (markdown parsing, link rewriting,
// diffs, compression), on piscina, so that no request parses, diffs or compresses on the event loop. Each task
// has a time limit (its thread is terminated past it, and a fresh one takes its place) and each thread a heap
// limit; tasks wait in a bounded queue, and one more is refused at once. Tasks wait per caller (pool-caller.ts)
// and take threads in turns (fair-schedule.ts), so one caller's queue delays another's next task by at most the
// tasks already running; a caller holds at most a few tasks. Failures are errors of the catalogue:
//   too_complex (422)     the task ran past its time limit
//   too_large (413)       the task needed more memory than a thread may hold
//   too_many_tasks (429)  the caller already holds as many tasks as it may; Retry-After says when to try again
//   unavailable (503)     the queue is full, or the pool is closed; Retry-After says when to try again
// A task's time counts from when its thread begins it, not from when it was queued: at most one task per thread
// is handed to piscina, the rest wait here.
import { createRequire } from "node:module";
import { extname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { AppError } from "../errors/app-error.ts";
import { FairSchedule } from "./fair-schedule.ts";
import { currentCaller } from "./pool-caller.ts";
import {
  poolTasks,
  type PoolRequest,
  type PoolTaskInput,
  type PoolTaskName,
  type PoolTaskOutput,
} from "./pool-tasks.ts";

export interface WorkerPoolLimits {
  /** Threads, each may take a core while it runs a task. */
  readonly threads: number;
  /** How long one task may run. */
  readonly taskTimeLimitMs: number;
  /** A thread's heap may grow to this many MB. */
  readonly memoryMb: number;
  /** Tasks that may wait for a thread; one more is refused with 503. */
  readonly queue: number;
  /** Tasks one caller may hold, running and waiting; one more is refused with 429 (default: 4). */
  readonly tasksPerCaller?: number;
  /** Threads one caller may use at once (default: half the threads, at least one). */
  readonly threadsPerCaller?: number;
}

interface Waiting {
  readonly start: () => void;
  readonly refuse: (error: AppError) => void;
}

// The worker has the extension of this module: `.js` once compiled to dist/, `.ts` under tsx (tests,
// benchmarks). Piscina's own worker entry is JavaScript and imports ours dynamically, so a `.ts` entry only needs
// tsx's loader registered in the thread: Node 20 does not hand a thread the hooks of its parent.
const workerFile = fileURLToPath(new URL(`./pool.worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
function tsxLoader(): string[] {
  if (!workerFile.endsWith(".ts")) return [];
  const tsx = createRequire(import.meta.url).resolve("tsx/package.json");
  return ["--import", new URL("dist/loader.mjs", pathToFileURL(tsx)).href];
}

/** How long a task may wait for its thread to begin it (a thread's start, under load, with tsx). */
const STARTUP_LIMIT_MS = 60_000;
/** How long a thread with no task stays up. */
const IDLE_THREAD_MS = 60_000;

const unavailable = (why: string): AppError =>
  new AppError("unavailable", `${why}; retry shortly`, { "retry-after": "5" });
const outOfMemory = (error: unknown): boolean =>
  error instanceof Error && "code" in error && error.code === "ERR_WORKER_OUT_OF_MEMORY";

const DEFAULT_TASKS_PER_CALLER = 4;

export class WorkerPool {
  private readonly piscina: Piscina;
  private readonly schedule: FairSchedule<Waiting>;
  /** The tasks handed to piscina that no thread has begun yet: what a thread failing to start fails. */
  private readonly unbegun = new Set<(error: AppError) => void>();
  private finished = 0;
  private closed = false;

  constructor(private readonly limits: WorkerPoolLimits) {
    const execArgv = tsxLoader();
    this.schedule = new FairSchedule({
      slots: limits.threads,
      runningPerCaller: limits.threadsPerCaller ?? Math.max(1, Math.ceil(limits.threads / 2)),
      perCaller: limits.tasksPerCaller ?? DEFAULT_TASKS_PER_CALLER,
      queue: limits.queue,
    });
    this.piscina = new Piscina({
      filename: workerFile,
      // Threads start when a task needs one (a process that never exports starts none) and stay a while after.
      minThreads: 0,
      maxThreads: limits.threads,
      idleTimeout: IDLE_THREAD_MS,
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
      ...(execArgv.length > 0 ? { execArgv } : {}),
    });
    // A thread that fails outside a task (it could not even load its modules within its heap) would otherwise
    // be an unhandled 'error' event. The tasks waiting for a thread fail at once rather than at the start limit.
    this.piscina.on("error", () => {
      for (const fail of [...this.unbegun]) fail(unavailable("no worker thread could start"));
    });
  }

  /**
   * Runs `task` on a thread of the pool; its output is checked against the task's schema on arrival. A caller
   * with a limit of its own (the import's per-note limit) passes `timeLimitMs`.
   */
  async run<K extends PoolTaskName>(
    task: K,
    input: PoolTaskInput<K>,
    options: { timeLimitMs?: number } = {},
  ): Promise<PoolTaskOutput<K>> {
    const timeLimitMs = options.timeLimitMs ?? this.limits.taskTimeLimitMs;
    const caller = currentCaller();
    await this.admit(caller);
    const controller = new AbortController();
    // Set by `abort`, which TypeScript cannot see from here: the assertion keeps it from narrowing to null.
    let failure = null as AppError | null;
    const abort = (error: AppError): void => {
      failure = error;
      controller.abort();
    };
    // The time limit counts from the thread's word that it began: a thread replaced after a time-out starts
    // afresh first, and that start is not the task's doing. A thread that never begins is given up on.
    let timer = setTimeout(() => abort(unavailable("no worker thread could start")), STARTUP_LIMIT_MS);
    this.unbegun.add(abort);
    const { port1: begun, port2: begin } = new MessageChannel();
    begun.once("message", () => {
      this.unbegun.delete(abort);
      clearTimeout(timer);
      timer = setTimeout(
        () => abort(new AppError("too_complex", `the work took longer than its limit of ${timeLimitMs} ms`)),
        timeLimitMs,
      );
    });
    try {
      const request: PoolRequest = { task, input, begin };
      const output: unknown = await this.piscina.run(request, { signal: controller.signal, transferList: [begin] });
      return poolTasks[task].output.parse(output) as PoolTaskOutput<K>;
    } catch (error) {
      if (failure) throw failure;
      if (outOfMemory(error))
        throw new AppError("too_large", `the work needed more than its limit of ${this.limits.memoryMb} MB of memory`);
      if (this.closed) throw unavailable("the server is shutting down");
      throw error;
    } finally {
      this.unbegun.delete(abort);
      clearTimeout(timer);
      begun.close();
      this.finished += 1;
      this.release(caller);
    }
  }

  /** Tasks finished (in any way) since the pool started: what tests use to see that work ran in the pool. */
  get completed(): number {
    return this.finished;
  }

  /** Refuses the waiting tasks and terminates the threads. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const waiting of this.schedule.drain()) waiting.refuse(unavailable("the server is shutting down"));
    await this.piscina.close({ force: true });
  }

  private admit(caller: string): Promise<void> {
    if (this.closed) return Promise.reject(unavailable("the server is shutting down"));
    return new Promise<void>((start, refuse) => {
      const admission = this.schedule.submit(caller, { start, refuse });
      if (admission.kind === "start") start();
      else if (admission.kind === "refused")
        refuse(admission.reason === "caller_full" ? this.callerFull() : unavailable("the server's workers are busy"));
    });
  }

  private release(caller: string): void {
    for (const next of this.schedule.finish(caller)) next.start();
  }

  private callerFull(): AppError {
    const seconds = Math.max(1, Math.ceil(this.limits.taskTimeLimitMs / 1000));
    const allowed = this.limits.tasksPerCaller ?? DEFAULT_TASKS_PER_CALLER;
    return new AppError(
      "too_many_tasks",
      `you already have ${allowed} tasks running or waiting on the server's workers, as many as one caller may; retry when one ends`,
      { "retry-after": String(seconds) },
    );
  }
}
