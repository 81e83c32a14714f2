// GET /metrics in Prometheus text format, on a service's own port or, for a service without one (projector,
// notifier), on METRICS_PORT. Not for the public gateway, which answers it 404.
import type { Logger } from "pino";
import { z } from "zod";
import type { Metrics } from "../metrics/metrics.port.ts";
import { createApp, type App } from "./create-app.ts";

export function metricsRoute(app: App, metrics: Pick<Metrics, "exposition">): void {
  app.get("/metrics", { schema: { response: { 200: z.string().describe("Prometheus text format") } } }, async (_request, reply) => {
    const { contentType, body } = await metrics.exposition();
    return reply.type(contentType).send(body);
  });
}

/**
 * A server of /metrics, for a process that serves nothing else over HTTP, and of the routes `routes` adds (the
 * projector's /healthz and /readyz, which its container's health check asks).
 */
export async function serveMetrics(
  metrics: Metrics,
  options: { port: number; host: string; logger: Logger; routes?: (app: App) => void },
): Promise<{ url: string; close(): Promise<void> }> {
  const app = createApp({ logger: options.logger, bodyLimit: 1024, metrics });
  metricsRoute(app, metrics);
  options.routes?.(app);
  const url = await app.listen({ port: options.port, host: options.host });
  return { url, close: () => app.close() };
}
