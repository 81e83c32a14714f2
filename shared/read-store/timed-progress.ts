// Projection progress that reports how long each wait for the read models took and whether it timed out.
import type { ConsistencyWaitKind, ConsistencyWaitMetrics } from "../metrics/metrics.port.ts";
import type { ProjectionProgress } from "./checkpoint-watcher.ts";

export function timedProgress(
  progress: ProjectionProgress,
  kind: ConsistencyWaitKind,
  metrics: ConsistencyWaitMetrics,
): ProjectionProgress {
  return {
    current: () => progress.current(),
    async waitFor(position, timeoutMs) {
      const started = performance.now();
      const reached = await progress.waitFor(position, timeoutMs);
      metrics.consistencyWait(kind, (performance.now() - started) / 1000, reached);
      return reached;
    },
  };
}
