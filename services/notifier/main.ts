// The notifier on its own over the embedded stores: it takes invitation events from NATS JetStream when
// NATS_URL is set, otherwise from the event store it follows itself, and sends through SMTP when SMTP_URL is set,
// otherwise to DATA_DIR/outbox. Any number of notifiers may run: each attempt sends at most one email.
import { startTracing, stopTracing } from "../wiring/tracing.ts";
import { openReadStore, openWebhookDeliveries } from "../wiring/read-stores.ts";
import { openEventStore } from "../wiring/write-stores.ts";
import { busFor } from "../wiring/bus.ts";
import { metricsServerFor } from "../wiring/metrics-server.ts";
import { startNotifier } from "../wiring/notifier.ts";
import { runUntilSignalled } from "../lifecycle.ts";
import { PrometheusMetrics } from "../../shared/adapters/prometheus/prometheus.metrics.ts";
import { toBusMessage } from "../../shared/bus/integration-events.ts";
import { loadConfig } from "../../shared/config/config.ts";
import { parseRecorded } from "../../shared/events.ts";
import { createLogger } from "../../shared/logging/logger.ts";

await runUntilSignalled("notifier", async () => {
  const config = loadConfig();
  await startTracing(config, "notifier");
  const logger = createLogger(config.LOG_LEVEL, "notifier");
  const metrics = new PrometheusMetrics();
  const eventStore = await openEventStore(config, { recordBinding: true });
  const readStore = await openReadStore(config, metrics);
  const bus = busFor(config, "notifier", { logger, metrics });
  // Notification emails at once come from the projector's publisher over NATS; the daily digest runs here either
  // way. Webhooks follow the event log and the read models themselves (not the bus).
  const webhookDeliveries = await openWebhookDeliveries(config);
  const notifier = await startNotifier(config, {
    bus,
    eventStore,
    readStore,
    webhookDeliveries,
    logger,
    clock: () => new Date(),
    metrics,
  });
  // Without NATS the notifier feeds its own in-process bus from the event store, from the start (attempts
  // already started or ended are skipped). With NATS the projector publishes, and a sweep settles what no
  // message will bring (an attempt never started, one abandoned past its lease).
  const feed = config.NATS_URL
    ? null
    : eventStore.subscribe(0, (batch) => bus.publish(batch.map((recorded) => toBusMessage(parseRecorded(recorded)))));
  if (config.NATS_URL) notifier.recover();
  const metricsServer = await metricsServerFor(config, metrics, logger);
  logger.info({
    event: "notifier.started",
    bus: config.NATS_URL ? "nats" : "in-process",
    metrics: metricsServer?.url ?? null,
  });
  return {
    async close() {
      await metricsServer?.close();
      await feed?.stop();
      await notifier.stop();
      await webhookDeliveries.close();
      await bus.close();
      await readStore.close();
      await eventStore.close();
      await stopTracing();
    },
  };
});
