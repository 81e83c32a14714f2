// The projector on its own: follows the event store (DATA_DIR, or EVENTSTORE_URL) and keeps the read models
// (DATA_DIR, or MONGODB_URL) up to date; with NATS_URL its publisher, beside it, publishes every event to NATS
// JetStream from a position of its own, so an outage of NATS never holds the read models back.
import { startTracing, stopTracing } from "../wiring/tracing.ts";
import { PrometheusMetrics } from "../../shared/adapters/prometheus/prometheus.metrics.ts";
import { NatsBus } from "../../shared/adapters/nats/nats.bus.ts";
import { loadConfig } from "../../shared/config/config.ts";
import { createLogger } from "../../shared/logging/logger.ts";
import { healthRoutes } from "../../shared/http/health.routes.ts";
import { CheckpointWatcher } from "../../shared/read-store/checkpoint-watcher.ts";
import { openReadStore } from "../wiring/read-stores.ts";
import { openEventStore } from "../wiring/write-stores.ts";
import { openLiveProjectionStore, startProjector } from "../wiring/projector.ts";
import { natsOptions } from "../wiring/bus.ts";
import { metricsServerFor } from "../wiring/metrics-server.ts";
import { runUntilSignalled } from "../lifecycle.ts";
import { Publisher } from "./publisher.ts";

await runUntilSignalled("projector", async () => {
  const config = loadConfig();
  await startTracing(config, "projector");
  const logger = createLogger(config.LOG_LEVEL, "projector");
  const metrics = new PrometheusMetrics();
  const eventStore = await openEventStore(config);
  const store = await openLiveProjectionStore(config, { eventStore, logger });
  const watcher = new CheckpointWatcher(store);
  const projector = await startProjector(config, { eventStore, store, watcher, logger, metrics });
  // Opened at once, connecting in the background: with NATS away the read models go on, and the publisher
  // retries from its position until NATS answers.
  const bus = config.NATS_URL
    ? NatsBus.open(config.NATS_URL, natsOptions(config, "projector", { logger, metrics }))
    : null;
  // The publisher reads the notifications each batch made, to publish `notification.created` for them.
  const notificationViews = bus ? await openReadStore(config, metrics) : null;
  const publisher =
    bus && notificationViews
      ? new Publisher({
          eventStore,
          bus,
          projection: watcher,
          notifications: notificationViews.notifications,
          logger,
          metrics,
        })
      : null;
  await publisher?.start();
  // Beside /metrics, /readyz says whether the projection progresses (503 when stalled or too far behind): the
  // container's health check asks it (docker-compose.yml, HEALTHCHECK_URL).
  // The store answers when its checkpoint can be read.
  const reachable = { checkpoint: () => store.checkpoint(), ping: () => store.checkpoint().then(() => true) };
  const metricsServer = await metricsServerFor(config, metrics, logger, (app) =>
    healthRoutes(app, { eventStore, readStore: reachable, projector }),
  );
  logger.info({
    event: "projector.started",
    checkpoint: projector.checkpoint,
    bus: bus ? "nats" : "none",
    metrics: metricsServer?.url ?? null,
  });
  return {
    async close() {
      await metricsServer?.close();
      await publisher?.stop();
      await projector.stop();
      await bus?.close();
      await notificationViews?.close();
      watcher.close();
      await store.close();
      await eventStore.close();
      await stopTracing();
    },
  };
});
