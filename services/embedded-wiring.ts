// Wiring over the embedded SQLite stores, shared by the all-in-one process and the single-service entries:
// which adapter each port gets. The command side owns the event store; a query side is given only views.
import { UnsubscribeTokens } from "../shared/notifications/unsubscribe-token.ts";
import { join } from "node:path";
import { oauthKeysFrom, type OAuthKeys } from "../shared/oauth/oauth-keys.ts";
import type { Logger } from "pino";
import { InProcessBus } from "../shared/adapters/in-process/in-process.bus.ts";
import { NatsBus, type NatsBusOptions } from "../shared/adapters/nats/nats.bus.ts";
import { InMemoryRateLimitCounters } from "../shared/adapters/in-process/in-memory.rate-limit-counters.ts";
import { NatsRateLimitCounters } from "../shared/adapters/nats/nats-kv.rate-limit-counters.ts";
import { OutboxMailer } from "../shared/adapters/outbox/outbox.mailer.ts";
import { OutboxSentMail } from "../shared/adapters/outbox/outbox.sent-mail.ts";
import { AUDIT_DIRECTORY, AuditReadModelCopies } from "../shared/adapters/files/audit-read-model-copies.ts";
import type { ReadModelCopies } from "../shared/erasure/read-model-copies.port.ts";
import type { StoreJournals } from "../shared/erasure/store-journals.port.ts";
import { SqliteJournals } from "../shared/adapters/sqlite/sqlite.journals.ts";
import type { SentMail } from "../shared/mail/sent-mail.port.ts";
import { KEY_STORE_FILE, type Erasure } from "./key-store-wiring.ts";
import type { BlobReader, BlobStore } from "../shared/blobs/blob-store.port.ts";
import type { Bus } from "../shared/bus/bus.port.ts";
import { SmtpMailer } from "../shared/adapters/smtp/smtp.mailer.ts";
import type { Mailer } from "../shared/mail/mailer.port.ts";
import { InProcessWriteSide } from "../shared/adapters/in-process/in-process.write-side.ts";
import { Authenticator } from "../shared/auth/authenticator.ts";
import { sessionKeyFor } from "../shared/auth/session-key.ts";
import { SessionVerifier } from "../shared/auth/session-verifier.ts";
import type { WriteSide } from "../shared/auth/write-side.port.ts";
import { quotasFor } from "../shared/quotas/quotas.ts";
import { oidcSettings, rateLimitPolicies, type Config } from "../shared/config/config.ts";
import { OidcSignIn } from "../shared/auth/sign-in/oidc-sign-in.ts";
import type { SignInPorts } from "./command-api/routes/sign-in.routes.ts";
import { countedAppends } from "../shared/event-store/counted-appends.ts";
import type { EventStore } from "../shared/event-store/event-store.port.ts";
import { createApp, type App } from "../shared/http/create-app.ts";
import { serveMetrics } from "../shared/http/metrics.routes.ts";
import type { RateLimits } from "../shared/http/rate-limit.ts";
import { ImageInspector } from "../shared/images/inspect-image.ts";
import { NoteRewriter } from "../shared/imports/note-rewriter.ts";
import type { Metrics, WebhookMetrics } from "../shared/metrics/metrics.port.ts";
import { timedProgress } from "../shared/read-store/timed-progress.ts";
import { tracedProgress } from "../shared/read-store/traced-progress.ts";
import type { ProjectionProgress } from "../shared/read-store/checkpoint-watcher.ts";
import type { ReadModels, ReadStore } from "../shared/read-store/read-store.port.ts";
import { acceptInvitationsOnRegistration } from "../shared/sharing/accept-invitations.ts";
import type { CommandApiPorts } from "./command-api/command-api-ports.ts";
import type { QueryApiPorts } from "./query-api/query-api-ports.ts";
import type { WebhookDeliveries } from "../shared/webhooks/webhook-deliveries.port.ts";
import { WebhookSecretSealer } from "../shared/webhooks/webhook-secret.ts";
import { WebhookWorker } from "./notifier/webhooks/webhook-worker.ts";
import { CallerSlots } from "../shared/workers/caller-slots.ts";
import { WorkerPool } from "../shared/workers/worker-pool.ts";
import type { RateLimitCounters } from "../shared/rate-limit/rate-limit-counters.port.ts";
import type { ShareLinkViewRecorder } from "../shared/share-links/share-link-views.port.ts";
import { ShareLinkViewCounter } from "../shared/share-links/view-counter.ts";
import { SharedPageRenderer } from "../shared/share-links/render/render-shared-page.ts";

export type Clock = () => Date;

/** The event store as the process's writers use it: counting what they append when the process has metrics. */
export function appendingStore(eventStore: EventStore, metrics?: Metrics): EventStore {
  return metrics ? countedAppends(eventStore, metrics) : eventStore;
}

/** The write side of a process that holds the event store: registration runs its reactions in process. */
export function inProcessWriteSide(
  stores: { eventStore: EventStore; readStore: ReadStore; erasure: Pick<Erasure, "kek"> },
  logger: Logger,
  clock: Clock,
  metrics?: Metrics,
): InProcessWriteSide {
  const { readStore: views, erasure } = stores;
  const eventStore = appendingStore(stores.eventStore, metrics);
  const laterAccountId = (subject: string, erasures: number) => erasure.kek.laterAccountId(subject, erasures);
  return new InProcessWriteSide({
    eventStore,
    views,
    clock,
    laterAccountId,
    registrationHooks: [acceptInvitationsOnRegistration({ eventStore, views, logger })],
  });
}

export function authenticatorFor(
  config: Config,
  ports: { views: ReadModels; writeSide: WriteSide; projection: ProjectionProgress; logger: Logger; clock: Clock },
  options: { createSessionSecret: boolean; metrics?: Metrics },
): Authenticator {
  const { metrics } = options;
  const sessions = new SessionVerifier(
    sessionKeyFor(config, { createInDataDir: options.createSessionSecret }),
    Date.now,
    metrics?.cache("verified_session"),
  );
  const oauthKeys = oauthKeysFor(config);
  const oauth = oauthKeys ? { oauth: { key: oauthKeys.verificationKey, issuer: config.PUBLIC_BASE_URL ?? null } } : {};
  return new Authenticator({
    ...ports,
    sessions,
    consistencyWaitMs: config.CONSISTENCY_WAIT_MS,
    ...oauth,
    ...(metrics ? { seenCache: metrics.cache("user_seen") } : {}),
  });
}

/** What the sign-in routes use: the OpenID provider when configured, and the secret sessions are signed with. */
export function signInPortsFor(
  config: Config,
  parts: Pick<SignInPorts, "authenticator" | "eventStore" | "clock">,
  logger: Logger,
): SignInPorts {
  const key = sessionKeyFor(config, { createInDataDir: true });
  const oidc = oidcSettings(config);
  return {
    ...parts,
    oidc: oidc ? new OidcSignIn(oidc, logger) : null,
    sessionSecret: key.kind === "secret" ? key.secret : null,
    publicBaseUrl: config.PUBLIC_BASE_URL ?? null,
  };
}

export function commandApiPorts(
  config: Config,
  stores: {
    eventStore: EventStore;
    readStore: ReadStore;
    blobs: BlobStore;
    webhookDeliveries: WebhookDeliveries;
    erasure: Erasure;
  },
  projection: ProjectionProgress,
  logger: Logger,
  clock: Clock,
  metrics?: Metrics,
  work: HeavyWork = heavyWorkFor(config),
): CommandApiPorts {
  const { pool, diffSlots } = work;
  const quotas = quotasFor(
    { tokensPerUser: config.QUOTA_TOKENS_PER_USER, blobBytesPerOwner: config.QUOTA_BLOB_BYTES_PER_OWNER },
    stores.readStore,
    clock,
  );
  const { keys, kek } = stores.erasure;
  return {
    erasure: {
      keys,
      addressHash: (address) => kek.addressHash(address),
      sentMail: sentMailFor(config),
      readModelCopies: readModelCopiesFor(config),
      journals: storeJournalsFor(config),
    },
    keyedHashes: {
      requestFingerprint: (canonical) => kek.fingerprintHash(canonical),
      importScope: (scope) => kek.importScopeHash(scope),
    },
    webhooks: {
      sealer: webhookSealerFor(config),
      deliveries: stores.webhookDeliveries,
      allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      limits: { perUser: config.WEBHOOKS_PER_USER, replaysPerWebhook: config.WEBHOOK_REPLAYS_PER_WEBHOOK },
    },
    eventStore: appendingStore(stores.eventStore, metrics),
    views: stores.readStore,
    blobs: stores.blobs,
    quotas,
    projection: tracedProgress(metrics ? timedProgress(projection, "write", metrics) : projection, "write"),
    clock,
    logger,
    consistencyWaitMs: config.CONSISTENCY_WAIT_MS,
    trashRetentionDays: config.TRASH_RETENTION_DAYS,
    attachmentMaxBytes: config.ATTACHMENT_MAX_BYTES,
    images: new ImageInspector({ concurrency: config.IMAGE_DECODE_CONCURRENCY, queue: config.IMAGE_DECODE_QUEUE }),
    pool,
    diffSlots,
    notes: new NoteRewriter(pool, { noteTimeLimitMs: config.IMPORT_NOTE_TIME_LIMIT_MS }),
    vaultZips: {
      maxZipBytes: config.IMPORT_ZIP_MAX_BYTES,
      maxUncompressedBytes: config.IMPORT_ZIP_MAX_UNCOMPRESSED_BYTES,
      maxRatio: config.IMPORT_ZIP_MAX_RATIO,
      spoolDirectory: join(config.DATA_DIR, "spool"),
    },
    publicBaseUrl: config.PUBLIC_BASE_URL ?? null,
    unsubscribe: unsubscribeTokensFor(config),
  };
}

/**
 * The bus: NATS JetStream when NATS_URL is set, otherwise in this process only. A NATS bus is returned at once,
 * connecting in the background: the process starts and serves while NATS is away.
 */
export function busFor(config: Config, name: string, report: { logger?: Logger; metrics?: Metrics } = {}): Bus {
  return config.NATS_URL ? NatsBus.open(config.NATS_URL, natsOptions(config, name, report)) : new InProcessBus();
}

/** Whether the bus is reachable, for /readyz: null for the in-process bus, which cannot be away. */
export function busReachability(bus: Bus): { readonly up: boolean } | null {
  return bus instanceof NatsBus ? bus : null;
}

/** The NATS bus's settings from the configuration: the stream's retention limits. */
export function natsOptions(
  config: Config,
  name: string,
  report: { logger?: Logger; metrics?: Metrics } = {},
): NatsBusOptions {
  return {
    name,
    maxAgeMs: config.NATS_STREAM_MAX_AGE_HOURS * 60 * 60_000,
    maxBytes: config.NATS_STREAM_MAX_BYTES,
    ...report,
  };
}

/**
 * Rate limits: counters in NATS KV when NATS_URL is set, so every node of a split deployment counts against
 * one budget; otherwise in this process. Returned at once: while NATS is away each node counts on its own.
 * `bus` says whether the shared counters are in use (for /readyz); the caller closes `counters` after the app.
 */
export function rateLimitsFor(
  config: Config,
  name: string,
  report: { logger?: Logger; metrics?: Metrics } = {},
): RateLimits & { readonly bus: { readonly up: boolean } | null } {
  const policies = rateLimitPolicies(config);
  const windows = Object.values(policies).flatMap((policy) => (policy ? [policy.windowSeconds] : []));
  if (!config.NATS_URL)
    return {
      counters: new InMemoryRateLimitCounters(),
      policies,
      userFactor: config.RATE_LIMIT_USER_FACTOR,
      bus: null,
    };
  const counters = NatsRateLimitCounters.open(config.NATS_URL, {
    maxWindowSeconds: Math.max(1, ...windows),
    name,
    ...report,
  });
  return { counters, policies, userFactor: config.RATE_LIMIT_USER_FACTOR, bus: counters };
}

/** An API process's HTTP server, with the body limit, request timeout and trusted proxies the config sets. */
export function apiAppFor(config: Config, parts: { logger: Logger; metrics: Metrics; rateLimits: RateLimits }): App {
  return createApp({
    ...parts,
    bodyLimit: config.BODY_LIMIT_BYTES,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    ...(config.TRUST_PROXY ? { trustProxy: config.TRUST_PROXY } : {}),
  });
}

/** The mailer: SMTP when SMTP_URL is set, otherwise .eml files in DATA_DIR/outbox. */
export function mailerFor(config: Config): Mailer {
  return config.SMTP_URL ? SmtpMailer.fromUrl(config.SMTP_URL) : new OutboxMailer(join(config.DATA_DIR, "outbox"));
}

/** Kept copies of sent mail: the outbox's files, or none when mail goes out by SMTP. */
export function sentMailFor(config: Config): SentMail | null {
  return config.SMTP_URL ? null : new OutboxSentMail(join(config.DATA_DIR, "outbox"));
}

/** The audit copies `npm run replay -- --until` writes (services/projector/replay.cli.ts), which erasures reach. */
/** The write-ahead logs of the SQLite files in DATA_DIR: the event store's, the read models' and the key store's, where they are files. */
export function storeJournalsFor(config: Config): StoreJournals {
  const files = [
    ...(config.EVENTSTORE_URL ? [] : ["events.sqlite"]),
    ...(config.MONGODB_URL ? [] : ["read-models.sqlite", KEY_STORE_FILE]),
  ];
  return new SqliteJournals(files.map((file) => join(config.DATA_DIR, file)));
}

export function readModelCopiesFor(config: Config): ReadModelCopies {
  return new AuditReadModelCopies(join(config.DATA_DIR, AUDIT_DIRECTORY));
}

/** Where links in emails point: PUBLIC_BASE_URL, or the server's own address when its port is fixed. */
export function publicBaseUrl(config: Config): string | null {
  return config.PUBLIC_BASE_URL ?? (config.PORT === 0 ? null : `http://${config.HOST}:${config.PORT}`);
}

export function queryApiPorts(
  config: Config,
  stores: { views: ReadModels; blobs: BlobReader; webhookDeliveries: WebhookDeliveries },
  projection: ProjectionProgress,
  writeSide: WriteSide,
  clock: Clock,
  publicPages: {
    readonly views: ShareLinkViewRecorder;
    readonly guessCounters: RateLimitCounters;
    readonly logger?: Logger;
  },
  metrics?: Metrics,
  work: HeavyWork = heavyWorkFor(config),
): QueryApiPorts {
  const { pool, diffSlots } = work;
  return {
    ...stores,
    projection: tracedProgress(metrics ? timedProgress(projection, "read", metrics) : projection, "read"),
    writeSide,
    clock,
    consistencyWaitMs: config.CONSISTENCY_WAIT_MS,
    changeFeed: { heartbeatMs: config.CHANGE_FEED_HEARTBEAT_MS, maxPerUser: config.CHANGE_FEED_MAX_PER_USER },
    trashRetentionDays: config.TRASH_RETENTION_DAYS,
    pool,
    diffSlots,
    exports: { maxPerUser: config.EXPORT_MAX_PER_USER, maxConcurrent: config.EXPORT_MAX_CONCURRENT },
    unsubscribe: unsubscribeTokensFor(config),
    publicPages: {
      viewCounter: new ShareLinkViewCounter(publicPages.views, {
        flushMs: config.SHARE_LINK_VIEW_FLUSH_MS,
        clock,
        ...(publicPages.logger ? { logger: publicPages.logger } : {}),
      }),
      guessCounters: publicPages.guessCounters,
      renderer: new SharedPageRenderer(pool),
    },
  };
}

/**
 * What a process's CPU-heavy work shares: the worker pool and the cap of diffs at once per user. A process that
 * serves both sides passes one of each to both (services/all-in-one.ts), so the diff route and the MCP tool count
 * against one cap.
 */
export interface HeavyWork {
  readonly pool: WorkerPool;
  readonly diffSlots: CallerSlots;
}

export function heavyWorkFor(config: Config): HeavyWork {
  return { pool: workerPoolFor(config), diffSlots: new CallerSlots(config.DIFFS_PER_USER, "diffs") };
}

/** The process's worker pool for CPU-heavy work on users' data; its threads start when a task needs one. */
function workerPoolFor(config: Config): WorkerPool {
  return new WorkerPool({
    threads: config.WORKER_THREADS,
    taskTimeLimitMs: config.WORKER_TASK_TIME_LIMIT_MS,
    memoryMb: config.WORKER_MEMORY_MB,
    queue: config.WORKER_QUEUE,
    tasksPerCaller: config.WORKER_TASKS_PER_CALLER,
    ...(config.WORKER_THREADS_PER_CALLER === undefined ? {} : { threadsPerCaller: config.WORKER_THREADS_PER_CALLER }),
  });
}

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

/**
 * The OAuth authorization server's keys, derived from the session secret (AUTH_SESSION_SECRET or the one the
 * embedded server keeps in DATA_DIR), so every node derives the same. Null with AUTH_JWKS_URL alone: the server
 * then has no authorization server, and OAuth access tokens are refused.
 */
export function oauthKeysFor(config: Config): OAuthKeys | null {
  try {
    const key = sessionKeyFor(config, { createInDataDir: !config.MONGODB_URL && !config.EVENTSTORE_URL });
    return key.kind === "secret" ? oauthKeysFrom(key.secret) : null;
  } catch {
    return null;
  }
}

/**
 * What webhook secrets are sealed with: WEBHOOK_SECRET_KEY, else the session secret (AUTH_SESSION_SECRET or the
 * one the embedded server keeps in DATA_DIR). Null when there is neither (AUTH_JWKS_URL alone): webhooks are
 * then refused with 503 and no deliveries are sent.
 */
function webhookSealerFor(config: Config): WebhookSecretSealer | null {
  if (config.WEBHOOK_SECRET_KEY) return new WebhookSecretSealer(config.WEBHOOK_SECRET_KEY);
  try {
    const key = sessionKeyFor(config, { createInDataDir: !config.MONGODB_URL && !config.EVENTSTORE_URL });
    return key.kind === "secret" ? new WebhookSecretSealer(key.secret) : null;
  } catch {
    return null;
  }
}

/**
 * What notification emails' unsubscribe links are signed with: NOTIFICATION_UNSUBSCRIBE_KEY, else the session secret
 * (as for webhook secrets). Null when there is neither (AUTH_JWKS_URL alone): mails then carry no unsubscribe link,
 * and the unsubscribe routes find no token.
 */
export function unsubscribeTokensFor(config: Config): UnsubscribeTokens | null {
  const validForMs = config.NOTIFICATION_UNSUBSCRIBE_DAYS * 24 * 60 * 60_000;
  if (config.NOTIFICATION_UNSUBSCRIBE_KEY)
    return new UnsubscribeTokens(config.NOTIFICATION_UNSUBSCRIBE_KEY, validForMs);
  try {
    const key = sessionKeyFor(config, { createInDataDir: !config.MONGODB_URL && !config.EVENTSTORE_URL });
    return key.kind === "secret" ? new UnsubscribeTokens(key.secret, validForMs) : null;
  } catch {
    return null;
  }
}

/** The webhook worker a notifier (or the all-in-one process) runs; null without a sealing key. */
export function webhookWorkerFor(
  config: Config,
  stores: { eventStore: EventStore; readStore: ReadStore; deliveries: WebhookDeliveries },
  logger: Logger,
  clock: Clock,
  metrics?: WebhookMetrics,
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
    ...(metrics ? { metrics } : {}),
  });
}
