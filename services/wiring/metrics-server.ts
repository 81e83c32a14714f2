// The HTTP server of a process that has no HTTP port of its own (the projector, the notifier): GET /metrics, and
// the routes the process adds (the projector's /readyz).
import type { Logger } from "pino";
import type { Config } from "../../shared/config/config.ts";
import type { App } from "../../shared/http/create-app.ts";
import { serveMetrics } from "../../shared/http/metrics.routes.ts";
import type { Metrics } from "../../shared/metrics/metrics.port.ts";

/** GET /metrics on METRICS_PORT, for a process without an HTTP port of its own; null when it is not set. */
export async function metricsServerFor(
  config: Config,
  metrics: Metrics,
  logger: Logger,
  routes?: (app: App) => void,
): Promise<{ url: string; close(): Promise<void> } | null> {
  return config.METRICS_PORT === undefined
    ? null
    : serveMetrics(metrics, {
        port: config.METRICS_PORT,
        host: config.HOST,
        logger,
        access: { token: config.METRICS_TOKEN ?? null },
        ...(routes ? { routes } : {}),
      });
}
