// Worker thread entry: renders shared pages' markdown (markdown-to-safe-html.ts) off the server's event loop.
import { parentPort } from "node:worker_threads";
import { markdownToSafeHtml, type RenderOptions } from "./markdown-to-safe-html.ts";

parentPort?.on("message", (job: { id: number; markdown: string; options: RenderOptions }) => {
  try {
    parentPort?.postMessage({ id: job.id, html: markdownToSafeHtml(job.markdown, job.options) });
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
parentPort?.postMessage({ ready: true });
