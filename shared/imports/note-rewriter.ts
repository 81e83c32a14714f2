// Vault notes parsed and their links rewritten in worker threads, so that the markdown parser (whose bracket
// matching within one paragraph is quadratic) never holds the server's event loop. A bounded pool, created
// lazily and shared by every import of the process: each import sends its links to a worker once, then its notes
// one at a time. A note that takes longer than the time limit has its worker terminated (a fresh one takes its
// place) and is reported too complex, so no note can hold an import, or a core, for longer than the limit.
import { createRequire } from "node:module";
import { extname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { AppError } from "../errors/app-error.ts";
import { fromWorker, type ToWorker } from "./note-rewrite.protocol.ts";
import type { RewrittenNote } from "./vault-note.ts";
import type { VaultLinks } from "./vault-resolver.ts";

export type RewriteOutcome =
  | { readonly kind: "rewritten"; readonly note: RewrittenNote }
  | { readonly kind: "unreadable" }
  | { readonly kind: "too_complex" }
  | { readonly kind: "too_large" };

export interface NoteToRewrite {
  readonly path: string;
  readonly directory: string;
  readonly markdown: string;
}

/** One import's use of the pool; `close` when the import is over, so the workers drop its links. */
export interface NoteRewriteSession {
  rewrite(note: NoteToRewrite): Promise<RewriteOutcome>;
  close(): void;
}

export interface NoteRewriterLimits {
  /** Workers at most, each a thread that may take a core while a note is parsed. */
  readonly workers: number;
  /** A note's parse and rewrite may take this long; past it, the note is reported too complex. */
  readonly noteTimeLimitMs: number;
  /** A worker's heap may grow to this many MB; a note whose parse needs more is reported too large to read. */
  readonly workerMemoryMb: number;
}

interface Job {
  readonly importId: number;
  readonly links: VaultLinks;
  readonly note: NoteToRewrite;
  resolve(outcome: RewriteOutcome): void;
  reject(error: Error): void;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  /** The imports whose links this worker holds. */
  readonly imports: Set<number>;
  job: { readonly job: Job; readonly timer: NodeJS.Timeout } | null;
}

// The worker has the extension of this module: `.js` once compiled to dist/, `.ts` when run through tsx (tests,
// benchmarks). Node 20 does not apply the loader hooks of `--import tsx` to a worker's entry module, so a `.ts`
// worker is started by a bootstrap that imports it through tsx's API.
const workerUrl = new URL(`./note-rewrite.worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
function startWorker(memoryMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: memoryMb };
  if (!workerUrl.pathname.endsWith(".ts")) return new Worker(workerUrl, { resourceLimits });
  const tsxApi = new URL("dist/esm/api/index.mjs", pathToFileURL(createRequire(import.meta.url).resolve("tsx/package.json"))).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(workerUrl.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}

/** The import answers 503: nothing was wrong with its notes, and the same request may work a moment later. */
const cannotParse = (): AppError => new AppError("unavailable", "the import's note parser could not start; retry shortly", { "retry-after": "5" });

const outOfMemory = (error: unknown): boolean => error instanceof Error && "code" in error && error.code === "ERR_WORKER_OUT_OF_MEMORY";

export class NoteRewriter {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextImportId = 1;
  private closed = false;

  constructor(private readonly limits: NoteRewriterLimits) {}

  session(links: VaultLinks): NoteRewriteSession {
    const importId = this.nextImportId++;
    return {
      rewrite: (note) =>
        new Promise<RewriteOutcome>((resolve, reject) => {
          if (this.closed) return reject(new Error("the note rewriter is closed"));
          this.queue.push({ importId, links, note, resolve, reject });
          this.pump();
        }),
      close: () => {
        for (const slot of this.slots) if (slot.imports.delete(importId)) this.post(slot, { type: "forget", importId });
      },
    };
  }

  /** Terminates every worker; a note waiting for one fails its import. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error("the note rewriter is closed"));
    await Promise.all([...this.slots].map((slot) => this.end(slot, new Error("the note rewriter is closed"))));
  }

  private pump(): void {
    for (const slot of this.slots) {
      const job = slot.ready && slot.job === null ? this.queue.shift() : undefined;
      if (job) this.dispatch(slot, job);
    }
    const starting = this.slots.filter((slot) => !slot.ready).length;
    for (let more = this.queue.length - starting; more > 0 && this.slots.length < this.limits.workers; more -= 1) this.spawn();
  }

  private spawn(): void {
    let worker: Worker;
    try {
      worker = startWorker(this.limits.workerMemoryMb);
    } catch {
      for (const job of this.queue.splice(0)) job.reject(cannotParse());
      return;
    }
    const slot: Slot = { worker, ready: false, imports: new Set(), job: null };
    this.slots.push(slot);
    worker.on("message", (data: unknown) => {
      const message = fromWorker.safeParse(data);
      if (!message.success) return void this.end(slot, null);
      if (message.data.type === "ready") {
        slot.ready = true;
        return this.pump();
      }
      const running = slot.job;
      if (!running) return;
      clearTimeout(running.timer);
      slot.job = null;
      running.job.resolve(message.data.type === "rewritten" ? { kind: "rewritten", note: message.data.note } : { kind: "unreadable" });
      this.pump();
    });
    // A worker that fails loses only the note it was on: reported too large when it ran out of its heap, else
    // unreadable (a bug).
    worker.on("error", (error) => void this.end(slot, null, outOfMemory(error) ? { kind: "too_large" } : { kind: "unreadable" }));
    worker.on("exit", () => void this.end(slot, null));
  }

  private dispatch(slot: Slot, job: Job): void {
    if (!slot.imports.has(job.importId)) {
      slot.imports.add(job.importId);
      this.post(slot, { type: "links", importId: job.importId, ...job.links, notePaths: [...job.links.notePaths], imagePaths: [...job.links.imagePaths] });
    }
    const timer = setTimeout(() => {
      slot.job = null;
      job.resolve({ kind: "too_complex" });
      void this.end(slot, null);
    }, this.limits.noteTimeLimitMs);
    slot.job = { job, timer };
    this.post(slot, { type: "note", importId: job.importId, ...job.note });
  }

  private post(slot: Slot, message: ToWorker): void {
    slot.worker.postMessage(message);
  }

  /** Removes the worker from the pool and terminates it; its note, if any, fails with `error` or `outcome`. */
  private async end(slot: Slot, error: Error | null, outcome: RewriteOutcome = { kind: "unreadable" }): Promise<void> {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    if (slot.job) {
      clearTimeout(slot.job.timer);
      if (error) slot.job.job.reject(error);
      else slot.job.job.resolve(outcome);
      slot.job = null;
    }
    if (!slot.ready) {
      // A worker that cannot even start would fail again: the notes waiting fail their imports instead.
      for (const job of this.queue.splice(0)) job.reject(error ?? cannotParse());
    } else if (!this.closed) {
      this.pump();
    }
    await slot.worker.terminate();
  }
}
