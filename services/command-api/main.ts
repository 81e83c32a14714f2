// The command API on its own; a projector must run beside it (npm run start:projector) for writes to become
// visible (until then they answer 202). Query nodes reach its internal routes through COMMAND_API_URL.
import { startTracing, stopTracing } from "../wiring/tracing.ts";
import { PrometheusMetrics } from "../../shared/adapters/prometheus/prometheus.metrics.ts";
import { loadConfig } from "../../shared/config/config.ts";
import { registerApiReference } from "../../shared/http/api-reference.ts";
import { closeApp } from "../../shared/http/create-app.ts";
import { installAuthentication } from "../../shared/http/guard.ts";
import { healthRoutes } from "../../shared/http/health.routes.ts";
import { metricsRoute } from "../../shared/http/metrics.routes.ts";
import { createLogger } from "../../shared/logging/logger.ts";
import { CheckpointWatcher } from "../../shared/read-store/checkpoint-watcher.ts";
import { openReadStore, openWebhookDeliveries } from "../wiring/read-stores.ts";
import { openBlobStore, openSealedEventStore } from "../wiring/write-stores.ts";
import { apiAppFor, authenticatorFor, heavyWorkFor, rateLimitsFor } from "../wiring/api-server.ts";
import { commandApiPorts, inProcessWriteSide, registerAccessRoutes } from "../wiring/command-api.ts";
import { runUntilSignalled } from "../lifecycle.ts";
import { registerCommandApi } from "./command-api.ts";
import { listenOn } from "../../shared/http/listen.ts";

await runUntilSignalled("command-api", async () => {
  const config = loadConfig();
  await startTracing(config, "command-api");
  const logger = createLogger(config.LOG_LEVEL, "command-api");
  const clock = () => new Date();
  const metrics = new PrometheusMetrics();
  const { eventStore, erasure } = await openSealedEventStore(config);
  // The worker pool before the read models: the MCP search tool ranks in it.
  const work = heavyWorkFor(config);
  const readStore = await openReadStore(config, metrics, work.pool);
  const watcher = new CheckpointWatcher(readStore);
  const blobs = await openBlobStore(config);
  const webhookDeliveries = await openWebhookDeliveries(config);
  const writeSide = inProcessWriteSide({ eventStore, readStore, erasure }, logger, clock, metrics);
  const rateLimits = rateLimitsFor(config, "command-api", { logger, metrics });
  const app = apiAppFor(config, { logger, metrics, rateLimits });
  const authenticator = authenticatorFor(
    config,
    { views: readStore, writeSide, projection: watcher, logger, clock },
    { createSessionSecret: true, metrics },
  );
  installAuthentication(app, authenticator);
  await registerApiReference(app);
  healthRoutes(app, { eventStore, readStore, dependencies: { bus: rateLimits.bus } });
  metricsRoute(app, metrics, { token: config.METRICS_TOKEN ?? null });
  const commandPorts = commandApiPorts(
    config,
    { eventStore, readStore, blobs, webhookDeliveries, erasure },
    watcher,
    logger,
    clock,
    metrics,
    work,
  );
  await registerCommandApi(app, commandPorts);
  await registerAccessRoutes(app, config, { command: commandPorts, authenticator, rateLimits });
  const url = await listenOn(app, config.PORT, config.HOST);
  logger.info({ event: "server.started", url, mode: "command-api" });
  return {
    async close() {
      await closeApp(app);
      await rateLimits.counters.close();
      watcher.close();
      await blobs.close();
      await webhookDeliveries.close();
      await readStore.close();
      await eventStore.close();
      await stopTracing();
    },
  };
});
