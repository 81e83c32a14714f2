// A query node on its own: serves every GET from the read models and opens no event store. What must be
// recorded (a user's first sight, a token's use) is asked of the command API at COMMAND_API_URL.
import { startTracing, stopTracing } from "../wiring/tracing.ts";
import { PrometheusMetrics } from "../../shared/adapters/prometheus/prometheus.metrics.ts";
import { CommandApiWriteSide } from "../../shared/adapters/http/command-api.write-side.ts";
import { ConfigError, loadConfig } from "../../shared/config/config.ts";
import { registerApiReference } from "../../shared/http/api-reference.ts";
import { closeApp } from "../../shared/http/create-app.ts";
import { installAuthentication } from "../../shared/http/guard.ts";
import { healthRoutes } from "../../shared/http/health.routes.ts";
import { metricsRoute } from "../../shared/http/metrics.routes.ts";
import { createLogger } from "../../shared/logging/logger.ts";
import { CheckpointWatcher } from "../../shared/read-store/checkpoint-watcher.ts";
import { openBlobReader, openReadStore, openWebhookDeliveries } from "../wiring/read-stores.ts";
import { apiAppFor, authenticatorFor, heavyWorkFor, rateLimitsFor } from "../wiring/api-server.ts";
import { queryApiPorts } from "../wiring/query-api.ts";
import { runUntilSignalled } from "../lifecycle.ts";
import { registerQueryApi } from "./query-api.ts";
import { listenOn } from "../../shared/http/listen.ts";
import { CommandApiShareLinkViews } from "../../shared/adapters/http/command-api.share-link-views.ts";

await runUntilSignalled("query-api", async () => {
  const config = loadConfig();
  await startTracing(config, "query-api");
  if (!config.COMMAND_API_URL)
    throw new ConfigError("invalid configuration: COMMAND_API_URL: a query node needs the command API's address");
  const logger = createLogger(config.LOG_LEVEL, "query-api");
  const clock = () => new Date();
  const metrics = new PrometheusMetrics();
  // The worker pool before the read models: searches are ranked in it.
  const work = heavyWorkFor(config);
  const readStore = await openReadStore(config, metrics, work.pool);
  const watcher = new CheckpointWatcher(readStore);
  const blobs = await openBlobReader(config);
  const webhookDeliveries = await openWebhookDeliveries(config);
  const writeSide = new CommandApiWriteSide(config.COMMAND_API_URL);
  const rateLimits = rateLimitsFor(config, "query-api", { logger, metrics });
  const app = apiAppFor(config, { logger, metrics, rateLimits });
  installAuthentication(
    app,
    authenticatorFor(
      config,
      { views: readStore, writeSide, projection: watcher, logger, clock },
      { createSessionSecret: false, metrics },
    ),
  );
  await registerApiReference(app, {
    peerDocumentUrl: new URL("/api/v1/openapi.json", config.COMMAND_API_URL).toString(),
  });
  healthRoutes(app, { readStore, dependencies: { bus: rateLimits.bus } });
  metricsRoute(app, metrics, { token: config.METRICS_TOKEN ?? null });
  const shareLinkViews = new CommandApiShareLinkViews(config.COMMAND_API_URL);
  await registerQueryApi(
    app,
    queryApiPorts(
      config,
      { views: readStore, blobs, webhookDeliveries },
      watcher,
      writeSide,
      clock,
      { views: shareLinkViews, guessCounters: rateLimits.counters, logger },
      metrics,
      work,
    ),
  );
  const url = await listenOn(app, config.PORT, config.HOST);
  logger.info({ event: "server.started", url, mode: "query-api" });
  return {
    async close() {
      await closeApp(app);
      await rateLimits.counters.close();
      watcher.close();
      await blobs.close();
      await webhookDeliveries.close();
      await readStore.close();
      await stopTracing();
    },
  };
});
