// Projection progress whose waits for the read models are spans (`consistency.wait`): how long a write's answer
// or a read with a consistency token waited. The progress itself when tracing is off.
import type { ConsistencyWaitKind } from "../metrics/metrics.port.ts";
import { tracing } from "../tracing/tracing.port.ts";
import type { ProjectionProgress } from "./checkpoint-watcher.ts";

export function tracedProgress(progress: ProjectionProgress, kind: ConsistencyWaitKind): ProjectionProgress {
  const traces = tracing();
  if (!traces.enabled) return progress;
  return {
    current: () => progress.current(),
    waitFor: (position, timeoutMs) =>
      traces.inSpan("consistency.wait", { attributes: { "workspace.consistency.kind": kind } }, async (span) => {
        const reached = await progress.waitFor(position, timeoutMs);
        span.setAttributes({ "workspace.consistency.reached": reached });
        return reached;
      }),
  };
}
