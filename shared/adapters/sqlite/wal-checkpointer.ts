// A write connection's WAL checkpoints, mostly taken off its thread. SQLite checkpoints in the commit that
// crosses 1,000 WAL pages: that commit copies them into the database file and syncs it, in the writer's own call.
// A live projection batch of one page write fills about 33 pages, so about one commit in 30 carried a checkpoint
// and held the event loop, and every request behind it, for several milliseconds (the lag's p99). Here, once the
// connection has committed a while, a worker thread with a connection of its own runs PASSIVE checkpoints every
// few tens of milliseconds (they never block the writer or a reader), and the writer's own threshold is raised
// to WRITER_BACKSTOP_PAGES. The writer still checkpoints at that threshold because only the writer can start the
// WAL over (it does so in the first write after a checkpoint it saw complete): the thread has by then copied
// nearly every page, so that checkpoint is short, and the WAL stays bounded under a steady load. Durability is
// unchanged: a committed transaction is in the WAL either way, and a crash recovers it from there. Should the
// thread fail, the writer checkpoints at SQLite's own threshold again.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";

/** Commits after which the thread starts: a short-lived store (a test, a CLI) never pays for a thread. */
const START_AFTER_COMMITS = 256;
/** SQLite's own automatic checkpoint threshold, restored if the thread fails. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;
/** The writer's threshold while the thread runs: a WAL of at most about 32 MB, started over at each. */
const WRITER_BACKSTOP_PAGES = 8_000;
/** The thread checkpoints this often while the WAL grows, backing off to MAX_INTERVAL_MS while it does not. */
const INTERVAL_MS = 50;
const MAX_INTERVAL_MS = 1_000;

// Plain CommonJS, run as given (no loader, compiled or not): open the file, checkpoint on a timer, close on request.
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
let delay = workerData.intervalMs;
let lastLog = -1;
let timer = null;
function step() {
  try {
    const [row] = db.pragma("wal_checkpoint(PASSIVE)");
    const idle = row !== undefined && row.log === lastLog && row.checkpointed === row.log;
    lastLog = row === undefined ? -1 : row.log;
    delay = idle ? Math.min(delay * 2, workerData.maxIntervalMs) : workerData.intervalMs;
    timer = setTimeout(step, delay);
  } catch (error) {
    parentPort.postMessage({ failed: String(error) });
    db.close();
    parentPort.close();
  }
}
parentPort.on("message", () => {
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
timer = setTimeout(step, delay);
parentPort.postMessage({ ready: true });
`;

export class WalCheckpointer {
  private commits = 0;
  private worker: { readonly thread: Worker; readonly exited: Promise<void> } | null = null;
  private closed = false;

  constructor(
    private readonly db: Database.Database,
    private readonly filename: string,
  ) {}

  /** Called after each commit of the connection: starts the thread once the store has proved long-lived. */
  afterCommit(): void {
    if (this.worker || this.closed || this.filename === ":memory:") return;
    this.commits += 1;
    if (this.commits >= START_AFTER_COMMITS) this.start();
  }

  private start(): void {
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      // Plain JavaScript needs none of the process's flags (a loader under tsx): the thread starts light.
      execArgv: [],
      workerData: {
        driver: createRequire(import.meta.url).resolve("better-sqlite3"),
        filename: this.filename,
        intervalMs: INTERVAL_MS,
        maxIntervalMs: MAX_INTERVAL_MS,
      },
    });
    worker.unref();
    this.worker = { thread: worker, exited: new Promise((resolve) => worker.once("exit", () => resolve())) };
    worker.on("message", (message: unknown) => {
      if (typeof message === "object" && message !== null && "ready" in message)
        this.setAutomatic(WRITER_BACKSTOP_PAGES);
      else this.setAutomatic(SQLITE_AUTOCHECKPOINT_PAGES);
    });
    worker.on("error", () => this.setAutomatic(SQLITE_AUTOCHECKPOINT_PAGES));
    worker.on("exit", () => this.setAutomatic(SQLITE_AUTOCHECKPOINT_PAGES));
  }

  private setAutomatic(pages: number): void {
    if (!this.closed && this.db.open) this.db.pragma(`wal_autocheckpoint = ${pages}`);
  }

  /** Stops the thread and waits for its connection to close, so the writer's close is the last one (it removes the WAL). */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    worker.thread.postMessage("close");
    const timer = setTimeout(() => void worker.thread.terminate(), 5_000);
    await worker.exited;
    clearTimeout(timer);
  }
}
