// The worker thread of page-diff.ts: one diff per message, answered with its outcome.
import { parentPort } from "node:worker_threads";
import { computePageDiff, diffTaskSchema } from "./page-diff.compute.ts";

parentPort?.on("message", (message: unknown) => {
  const task = diffTaskSchema.safeParse(message);
  parentPort?.postMessage(task.success ? computePageDiff(task.data) : { kind: "too_large" });
});
parentPort?.postMessage({ kind: "ready" });
