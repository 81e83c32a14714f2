// renderSharedPage(markdown, options): a shared page's safe HTML, rendered in a worker thread so that a large or
// pathological page never holds the event loop. One worker per process, started on first use, one page at a
// time. A page whose rendering takes longer than the time limit (the markdown parser's bracket matching is
// quadratic within a paragraph: 500,000 characters of `[x]` take minutes) has its worker terminated (a fresh one
// starts for the next page) and is shown as its escaped markdown text instead; the markdown's hash is kept, so
// the same text is not tried again and cannot hold the worker twice. This is the one function the public page
// calls, so the rendering can move onto a shared worker pool without touching its callers.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { extname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { z } from "zod";
import { AppError } from "../../errors/app-error.ts";
import { escapeHtml } from "../public-page-html.ts";
import type { RenderOptions } from "./markdown-to-safe-html.ts";

export type { RenderOptions } from "./markdown-to-safe-html.ts";

const TIME_LIMIT_MS = 10_000;
/** Markdown texts (by hash) known to take longer than the limit, at most this many remembered. */
const MAX_TOO_SLOW = 1_000;
const WORKER_MEMORY_MB = 512;
/** Pages waiting for the worker at most; one more is answered 503 at once. */
const MAX_QUEUE = 64;

const reply = z.union([z.object({ id: z.number(), html: z.string() }), z.object({ id: z.number(), error: z.string() })]);
const ready = z.object({ ready: z.literal(true) });

// As in shared/imports/note-rewriter.ts: `.js` once compiled, `.ts` through tsx, which a worker on Node 20 loads
// only through a bootstrap that imports it with tsx's API.
const workerUrl = new URL(`./render.worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
function startWorker(): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_MEMORY_MB };
  if (!workerUrl.pathname.endsWith(".ts")) return new Worker(workerUrl, { resourceLimits });
  const tsxApi = new URL("dist/esm/api/index.mjs", pathToFileURL(createRequire(import.meta.url).resolve("tsx/package.json"))).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(workerUrl.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}

interface Job {
  readonly id: number;
  readonly key: string;
  readonly markdown: string;
  readonly options: RenderOptions;
  resolve(html: string): void;
  reject(error: Error): void;
}

const busy = () => new AppError("unavailable", "the page cannot be shown right now; retry shortly", { "retry-after": "5" });

/** The page as text when it cannot be rendered in time: escaped, so it is as safe as the rendered page. */
const plainText = (markdown: string): string => `<pre>${escapeHtml(markdown)}</pre>`;

export class SharedPageRenderer {
  private worker: Worker | null = null;
  /** Whether the worker has loaded the renderer: the time limit counts from then, not from the thread's start. */
  private workerReady = false;
  private readonly tooSlow = new Set<string>();
  private current: { job: Job; timer: NodeJS.Timeout } | null = null;
  private readonly queue: Job[] = [];
  private nextId = 1;
  /** Renders done by a worker thread: what a test checks to know the work left the event loop. */
  rendered = 0;

  constructor(private readonly timeLimitMs = TIME_LIMIT_MS) {}

  render(markdown: string, options: RenderOptions): Promise<string> {
    const key = createHash("sha256").update(markdown).digest("hex");
    if (this.tooSlow.has(key)) return Promise.resolve(plainText(markdown));
    if (this.queue.length >= MAX_QUEUE) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, key, markdown, options, resolve, reject });
      this.pump();
    });
  }

  /** Stops the worker (tests; the process's own renderer lives as long as the process). */
  async close(): Promise<void> {
    await this.worker?.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker();
    worker.unref();
    this.workerReady = false;
    worker.on("message", (message: unknown) => {
      if (ready.safeParse(message).success && this.worker === worker) {
        this.workerReady = true;
        this.pump();
        return;
      }
      const parsed = reply.safeParse(message);
      const current = this.current;
      if (!parsed.success || !current || parsed.data.id !== current.job.id) return;
      clearTimeout(current.timer);
      this.current = null;
      if ("html" in parsed.data) {
        this.rendered += 1;
        current.job.resolve(parsed.data.html);
      } else current.job.reject(new AppError("internal", "the page could not be rendered"));
      this.pump();
    });
    worker.on("error", () => this.replaceWorker(worker));
    worker.on("exit", () => this.replaceWorker(worker));
    this.worker = worker;
    return worker;
  }

  private replaceWorker(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    if (!this.workerReady) {
      // The thread could not even load the renderer: the pages waiting are refused (503), and the next page
      // starts a thread again, rather than restarting one in a loop.
      for (const job of this.queue.splice(0)) job.reject(busy());
      return;
    }
    const current = this.current;
    this.current = null;
    if (current) {
      clearTimeout(current.timer);
      this.giveUp(current.job);
    }
    this.pump();
  }

  /** A page the worker could not render (too slow, or its heap ran out): shown as text, and not tried again. */
  private giveUp(job: Job): void {
    if (this.tooSlow.size >= MAX_TOO_SLOW) this.tooSlow.clear();
    this.tooSlow.add(job.key);
    job.resolve(plainText(job.markdown));
  }

  private pump(): void {
    if (this.current || this.queue.length === 0) return;
    const worker = this.ensureWorker();
    if (!this.workerReady) return;
    const job = this.queue.shift();
    if (!job) return;
    const timer = setTimeout(() => {
      // Detached first, so the next page goes to a fresh worker and this one's exit is ignored.
      this.worker = null;
      void worker.terminate();
      this.current = null;
      this.giveUp(job);
      this.pump();
    }, this.timeLimitMs);
    this.current = { job, timer };
    worker.postMessage({ id: job.id, markdown: job.markdown, options: job.options });
  }
}

const renderer = new SharedPageRenderer();

/** The page's markdown as sanitised HTML (an HTML fragment, without the surrounding document). */
export function renderSharedPage(markdown: string, options: RenderOptions): Promise<string> {
  return renderer.render(markdown, options);
}

/** How many pages this process rendered in its worker thread. */
export function sharedPagesRendered(): number {
  return renderer.rendered;
}
