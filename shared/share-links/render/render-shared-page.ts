// renderSharedPage(markdown, options): a shared page's safe HTML, rendered in a worker thread so that a large or
// pathological page never holds the event loop. One worker per process, started on first use, one page at a
// time; a page that takes longer than the time limit has its worker terminated (a fresh one starts for the
// next page) and is answered 503. This is the one function the public page calls, so the rendering can move
// onto a shared worker pool without touching its callers.
import { createRequire } from "node:module";
import { extname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { z } from "zod";
import { AppError } from "../../errors/app-error.ts";
import type { RenderOptions } from "./markdown-to-safe-html.ts";

export type { RenderOptions } from "./markdown-to-safe-html.ts";

const TIME_LIMIT_MS = 10_000;
const WORKER_MEMORY_MB = 512;
/** Pages waiting for the worker at most; one more is answered 503 at once. */
const MAX_QUEUE = 64;

const reply = z.union([z.object({ id: z.number(), html: z.string() }), z.object({ id: z.number(), error: z.string() })]);

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
  readonly markdown: string;
  readonly options: RenderOptions;
  resolve(html: string): void;
  reject(error: Error): void;
}

const busy = () => new AppError("unavailable", "the page cannot be shown right now; retry shortly", { "retry-after": "5" });

class SharedPageRenderer {
  private worker: Worker | null = null;
  private current: { job: Job; timer: NodeJS.Timeout } | null = null;
  private readonly queue: Job[] = [];
  private nextId = 1;
  /** Renders done by a worker thread: what a test checks to know the work left the event loop. */
  rendered = 0;

  render(markdown: string, options: RenderOptions): Promise<string> {
    if (this.queue.length >= MAX_QUEUE) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, markdown, options, resolve, reject });
      this.pump();
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker();
    worker.unref();
    worker.on("message", (message: unknown) => {
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
    const current = this.current;
    this.current = null;
    if (current) {
      clearTimeout(current.timer);
      current.job.reject(busy());
    }
    this.pump();
  }

  private pump(): void {
    if (this.current) return;
    const job = this.queue.shift();
    if (!job) return;
    const worker = this.ensureWorker();
    const timer = setTimeout(() => void worker.terminate(), TIME_LIMIT_MS);
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
