// Wiring over the embedded SQLite stores, shared by the all-in-one process and the single-service entries:
// which adapter each port gets. The command side owns the event store; a query side is given only views.
import { join } from "node:path";
import type { Logger } from "pino";
import { InProcessBus } from "../shared/adapters/in-process/in-process.bus.ts";
import { NatsBus } from "../shared/adapters/nats/nats.bus.ts";
import { OutboxMailer } from "../shared/adapters/outbox/outbox.mailer.ts";
import type { BlobReader, BlobStore } from "../shared/blobs/blob-store.port.ts";
import type { Bus } from "../shared/bus/bus.port.ts";
import { SmtpMailer } from "../shared/adapters/smtp/smtp.mailer.ts";
import type { Mailer } from "../shared/mail/mailer.port.ts";
import { InProcessWriteSide } from "../shared/adapters/in-process/in-process.write-side.ts";
import { Authenticator } from "../shared/auth/authenticator.ts";
import { sessionKeyFor } from "../shared/auth/session-key.ts";
import { SessionVerifier } from "../shared/auth/session-verifier.ts";
import type { WriteSide } from "../shared/auth/write-side.port.ts";
import type { Config } from "../shared/config/config.ts";
import { countedAppends } from "../shared/event-store/counted-appends.ts";
import type { EventStore } from "../shared/event-store/event-store.port.ts";
import { serveMetrics } from "../shared/http/metrics.routes.ts";
import type { Metrics } from "../shared/metrics/metrics.port.ts";
import { timedProgress } from "../shared/read-store/timed-progress.ts";
import type { ProjectionProgress } from "../shared/read-store/checkpoint-watcher.ts";
import type { ReadModels, ReadStore } from "../shared/read-store/read-store.port.ts";
import { acceptInvitationsOnRegistration } from "../shared/sharing/accept-invitations.ts";
import type { CommandApiPorts } from "./command-api/command-api.ts";
import type { QueryApiPorts } from "./query-api/query-api.ts";

export type Clock = () => Date;

/** The event store as the process's writers use it: counting what they append when the process has metrics. */
export function appendingStore(eventStore: EventStore, metrics?: Metrics): EventStore {
  return metrics ? countedAppends(eventStore, metrics) : eventStore;
}

/** The write side of a process that holds the event store: registration runs its reactions in process. */
export function inProcessWriteSide(stores: { eventStore: EventStore; readStore: ReadStore }, logger: Logger, clock: Clock, metrics?: Metrics): InProcessWriteSide {
  const { readStore: views } = stores;
  const eventStore = appendingStore(stores.eventStore, metrics);
  return new InProcessWriteSide({ eventStore, views, clock, registrationHooks: [acceptInvitationsOnRegistration({ eventStore, views, logger })] });
}

export function authenticatorFor(
  config: Config,
  ports: { views: ReadModels; writeSide: WriteSide; projection: ProjectionProgress; logger: Logger; clock: Clock },
  options: { createSessionSecret: boolean; metrics?: Metrics },
): Authenticator {
  const { metrics } = options;
  const sessions = new SessionVerifier(sessionKeyFor(config, { createInDataDir: options.createSessionSecret }), Date.now, metrics?.cache("verified_session"));
  return new Authenticator({ ...ports, sessions, consistencyWaitMs: config.CONSISTENCY_WAIT_MS, ...(metrics ? { seenCache: metrics.cache("user_seen") } : {}) });
}

export function commandApiPorts(
  config: Config,
  stores: { eventStore: EventStore; readStore: ReadStore; blobs: BlobStore },
  projection: ProjectionProgress,
  logger: Logger,
  clock: Clock,
  metrics?: Metrics,
): CommandApiPorts {
  return {
    eventStore: appendingStore(stores.eventStore, metrics),
    views: stores.readStore,
    blobs: stores.blobs,
    projection: metrics ? timedProgress(projection, "write", metrics) : projection,
    clock,
    logger,
    consistencyWaitMs: config.CONSISTENCY_WAIT_MS,
    trashRetentionDays: config.TRASH_RETENTION_DAYS,
  };
}

/** The bus: NATS JetStream when NATS_URL is set, otherwise in this process only. */
export async function busFor(config: Config, name: string): Promise<Bus> {
  return config.NATS_URL ? NatsBus.connect(config.NATS_URL, { name }) : new InProcessBus();
}

/** The mailer: SMTP when SMTP_URL is set, otherwise .eml files in DATA_DIR/outbox. */
export function mailerFor(config: Config): Mailer {
  return config.SMTP_URL ? SmtpMailer.fromUrl(config.SMTP_URL) : new OutboxMailer(join(config.DATA_DIR, "outbox"));
}

/** Where links in emails point: PUBLIC_BASE_URL, or the server's own address when its port is fixed. */
export function publicBaseUrl(config: Config): string | null {
  return config.PUBLIC_BASE_URL ?? (config.PORT === 0 ? null : `http://${config.HOST}:${config.PORT}`);
}

export function queryApiPorts(
  config: Config,
  stores: { views: ReadModels; blobs: BlobReader },
  projection: ProjectionProgress,
  writeSide: WriteSide,
  clock: Clock,
  metrics?: Metrics,
): QueryApiPorts {
  return {
    ...stores,
    projection: metrics ? timedProgress(projection, "read", metrics) : projection,
    writeSide,
    clock,
    consistencyWaitMs: config.CONSISTENCY_WAIT_MS,
    changeFeed: { heartbeatMs: config.CHANGE_FEED_HEARTBEAT_MS, maxPerUser: config.CHANGE_FEED_MAX_PER_USER },
    trashRetentionDays: config.TRASH_RETENTION_DAYS,
  };
}

/** GET /metrics on METRICS_PORT, for a process without an HTTP port of its own; null when it is not set. */
export async function metricsServerFor(config: Config, metrics: Metrics, logger: Logger): Promise<{ url: string; close(): Promise<void> } | null> {
  return config.METRICS_PORT === undefined ? null : serveMetrics(metrics, { port: config.METRICS_PORT, host: config.HOST, logger });
}
