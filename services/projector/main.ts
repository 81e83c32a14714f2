// The projector on its own: follows the event store (DATA_DIR, or EVENTSTORE_URL) and keeps the read models
// (DATA_DIR, or MONGODB_URL) up to date;
// with NATS_URL it publishes every event to NATS JetStream inside each batch.
import { PrometheusMetrics } from "../../shared/adapters/prometheus/prometheus.metrics.ts";
import { NatsBus } from "../../shared/adapters/nats/nats.bus.ts";
import { toBusMessage } from "../../shared/bus/integration-events.ts";
import { loadConfig } from "../../shared/config/config.ts";
import { createLogger } from "../../shared/logging/logger.ts";
import { openEventStore, openProjectionStore, projectorFor } from "../embedded-stores.ts";
import { metricsServerFor } from "../embedded-wiring.ts";
import { runUntilSignalled } from "../lifecycle.ts";

await runUntilSignalled("projector", async () => {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, "projector");
  const metrics = new PrometheusMetrics();
  const eventStore = openEventStore(config);
  const store = await openProjectionStore(config);
  const bus = config.NATS_URL ? await NatsBus.connect(config.NATS_URL, { name: "projector" }) : null;
  const projector = projectorFor(store, { eventStore, logger, metrics, ...(bus ? { publish: (events) => bus.publish(events.map(toBusMessage)) } : {}) });
  await projector.start();
  const metricsServer = await metricsServerFor(config, metrics, logger);
  logger.info({ event: "projector.started", checkpoint: projector.checkpoint, bus: bus ? "nats" : "none", metrics: metricsServer?.url ?? null });
  return {
    async close() {
      await metricsServer?.close();
      await projector.stop();
      await bus?.close();
      await store.close();
      await eventStore.close();
    },
  };
});
