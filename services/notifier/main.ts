// The notifier on its own over the embedded stores: it takes invitation events from NATS JetStream when
// NATS_URL is set, otherwise from the event store it follows itself, and sends through SMTP when SMTP_URL is set,
// otherwise to DATA_DIR/outbox. Any number of notifiers may run: each attempt sends at most one email.
import { startTracing, stopTracing } from "../tracing-wiring.ts";
import { openEventStore, openReadStore, openWebhookDeliveries } from "../embedded-stores.ts";
import {
  appendingStore,
  busFor,
  mailerFor,
  metricsServerFor,
  publicBaseUrl,
  unsubscribeTokensFor,
  webhookWorkerFor,
} from "../embedded-wiring.ts";
import { runUntilSignalled } from "../lifecycle.ts";
import { PrometheusMetrics } from "../../shared/adapters/prometheus/prometheus.metrics.ts";
import { toBusMessage } from "../../shared/bus/integration-events.ts";
import { loadConfig } from "../../shared/config/config.ts";
import { parseRecorded } from "../../shared/events.ts";
import { createLogger } from "../../shared/logging/logger.ts";
import { NotificationDelivery } from "./notification-delivery.ts";
import { Notifier } from "./notifier.ts";

await runUntilSignalled("notifier", async () => {
  const config = loadConfig();
  await startTracing(config, "notifier");
  const logger = createLogger(config.LOG_LEVEL, "notifier");
  const metrics = new PrometheusMetrics();
  const eventStore = await openEventStore(config, { recordBinding: true });
  const readStore = await openReadStore(config, metrics);
  const bus = busFor(config, "notifier", { logger, metrics });
  const mailer = mailerFor(config);
  const notifier = new Notifier({
    bus,
    eventStore: appendingStore(eventStore, metrics),
    readModels: readStore,
    mailer,
    logger,
    clock: () => new Date(),
    publicBaseUrl: publicBaseUrl(config),
    metrics,
  });
  await notifier.start();
  // Notification emails at once come from the projector's publisher over NATS; the daily digest runs here either way.
  const notificationDelivery = new NotificationDelivery({
    bus,
    eventStore: appendingStore(eventStore, metrics),
    readModels: readStore,
    mailer,
    logger,
    clock: () => new Date(),
    publicBaseUrl: publicBaseUrl(config),
    unsubscribe: unsubscribeTokensFor(config),
    digestHour: config.NOTIFICATION_DIGEST_HOUR,
  });
  await notificationDelivery.start();
  // Webhooks follow the event log and the read models themselves (not the bus): their delivery store holds
  // where they are, so every notifier shares one queue.
  const webhookDeliveries = await openWebhookDeliveries(config);
  const webhooks = webhookWorkerFor(
    config,
    { eventStore: appendingStore(eventStore, metrics), readStore, deliveries: webhookDeliveries },
    logger,
    () => new Date(),
    metrics,
  );
  webhooks?.start();
  // Without NATS the notifier feeds its own in-process bus from the event store, from the start (attempts
  // already started or ended are skipped). With NATS the projector publishes, and a sweep settles what no
  // message will bring (an attempt never started, one abandoned past its lease).
  const feed = config.NATS_URL
    ? null
    : eventStore.subscribe(0, (batch) => bus.publish(batch.map((recorded) => toBusMessage(parseRecorded(recorded)))));
  if (config.NATS_URL)
    void notifier.recover().catch((error: unknown) => logger.warn({ event: "notifier.recovery_failed", err: error }));
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
      await notificationDelivery.stop();
      await webhooks?.stop();
      await webhookDeliveries.close();
      await bus.close();
      await readStore.close();
      await eventStore.close();
      await stopTracing();
    },
  };
});
