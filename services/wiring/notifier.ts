// The notifier as every process that runs one builds it (the notifier's own and the all-in-one): invitation mail
// (Notifier), notification mail at once and the daily digest (NotificationDelivery), and the webhook worker. Mail
// goes out by SMTP when SMTP_URL is set, otherwise to .eml files in DATA_DIR/outbox.
import { join } from "node:path";
import type { Logger } from "pino";
import { OutboxMailer } from "../../shared/adapters/outbox/outbox.mailer.ts";
import { SmtpMailer } from "../../shared/adapters/smtp/smtp.mailer.ts";
import type { Bus } from "../../shared/bus/bus.port.ts";
import type { Config } from "../../shared/config/config.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import type { Mailer } from "../../shared/mail/mailer.port.ts";
import type { Metrics } from "../../shared/metrics/metrics.port.ts";
import type { ReadStore } from "../../shared/read-store/read-store.port.ts";
import type { WebhookDeliveries } from "../../shared/webhooks/webhook-deliveries.port.ts";
import { NotificationDelivery } from "../notifier/notification-delivery.ts";
import { Notifier } from "../notifier/notifier.ts";
import { WebhookWorker } from "../notifier/webhooks/webhook-worker.ts";
import type { Clock } from "./api-server.ts";
import { unsubscribeTokensFor, webhookSealerFor } from "./secret-keys.ts";
import { appendingStore } from "./write-stores.ts";

/** The mailer: SMTP when SMTP_URL is set, otherwise .eml files in DATA_DIR/outbox. */
export function mailerFor(config: Config): Mailer {
  return config.SMTP_URL ? SmtpMailer.fromUrl(config.SMTP_URL) : new OutboxMailer(join(config.DATA_DIR, "outbox"));
}

/** Where links in emails point: PUBLIC_BASE_URL, or the server's own address when its port is fixed. */
function publicBaseUrl(config: Config): string | null {
  return config.PUBLIC_BASE_URL ?? (config.PORT === 0 ? null : `http://${config.HOST}:${config.PORT}`);
}

/** The webhook worker; null without a key to seal webhook secrets with. */
function webhookWorkerFor(
  config: Config,
  stores: { eventStore: EventStore; readStore: ReadStore; deliveries: WebhookDeliveries },
  logger: Logger,
  clock: Clock,
  metrics: Metrics,
): WebhookWorker | null {
  const sealer = webhookSealerFor(config);
  if (!sealer) {
    logger.warn({
      event: "webhooks.unavailable",
      reason: "no WEBHOOK_SECRET_KEY and no session secret to seal webhook secrets with",
    });
    return null;
  }
  return new WebhookWorker({
    ...stores,
    sealer,
    logger,
    clock,
    allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    retentionMs: config.WEBHOOK_DELIVERY_RETENTION_DAYS * 24 * 60 * 60_000,
    leaseMs: config.WEBHOOK_LEASE_MS,
    retry: { firstRetryMs: config.WEBHOOK_FIRST_RETRY_MS },
    ownerInFlight: config.WEBHOOK_OWNER_IN_FLIGHT,
    replayQueue: config.WEBHOOK_REPLAY_QUEUE,
    metrics,
  });
}

/** A process's notifier, started. */
export interface RunningNotifier {
  /** Notification emails at once and the daily digest (a test sends the digests by calling it). */
  readonly notificationDelivery: NotificationDelivery;
  /** Settles, in the background, the invitation attempts no bus message will bring (Notifier.recover). */
  recover(): void;
  stop(): Promise<void>;
}

/**
 * Starts invitation mail and notification mail on `bus`, and the webhook worker, which follows the event log and
 * the read models itself (not the bus): its delivery store holds where it is, so every notifier shares one queue.
 * The caller closes the stores after `stop`.
 */
export async function startNotifier(
  config: Config,
  parts: {
    bus: Bus;
    eventStore: EventStore;
    readStore: ReadStore;
    webhookDeliveries: WebhookDeliveries;
    logger: Logger;
    clock: Clock;
    metrics: Metrics;
  },
): Promise<RunningNotifier> {
  const { bus, readStore, logger, clock, metrics } = parts;
  const eventStore = appendingStore(parts.eventStore, metrics);
  const mail = {
    bus,
    eventStore,
    readModels: readStore,
    mailer: mailerFor(config),
    logger,
    clock,
    publicBaseUrl: publicBaseUrl(config),
  };
  const notifier = new Notifier({ ...mail, metrics });
  await notifier.start();
  const notificationDelivery = new NotificationDelivery({
    ...mail,
    unsubscribe: unsubscribeTokensFor(config),
    digestHour: config.NOTIFICATION_DIGEST_HOUR,
  });
  await notificationDelivery.start();
  const deliveries = parts.webhookDeliveries;
  const webhooks = webhookWorkerFor(config, { eventStore, readStore, deliveries }, logger, clock, metrics);
  webhooks?.start();
  return {
    notificationDelivery,
    recover() {
      void notifier.recover().catch((error: unknown) => logger.warn({ event: "notifier.recovery_failed", err: error }));
    },
    async stop() {
      await notifier.stop();
      await notificationDelivery.stop();
      await webhooks?.stop();
    },
  };
}
