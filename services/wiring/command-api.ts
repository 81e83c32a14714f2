// The ports of the command API, as the command API's process and the all-in-one build them, and the routes both
// register beside its write routes: the OAuth authorization server, MCP and sign-in. The command side owns the
// event store; the write side it offers registers users and runs their reactions in process.
import { join } from "node:path";
import type { Logger } from "pino";
import { InProcessWriteSide } from "../../shared/adapters/in-process/in-process.write-side.ts";
import type { Authenticator } from "../../shared/auth/authenticator.ts";
import { sessionKeyFor } from "../../shared/auth/session-key.ts";
import { OidcSignIn } from "../../shared/auth/sign-in/oidc-sign-in.ts";
import type { BlobStore } from "../../shared/blobs/blob-store.port.ts";
import { oidcSettings, type Config } from "../../shared/config/config.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import type { App } from "../../shared/http/create-app.ts";
import type { RateLimits } from "../../shared/http/rate-limit.ts";
import { ImageInspector } from "../../shared/images/inspect-image.ts";
import { NoteRewriter } from "../../shared/imports/note-rewriter.ts";
import type { Metrics } from "../../shared/metrics/metrics.port.ts";
import { quotasFor } from "../../shared/quotas/quotas.ts";
import type { ProjectionProgress } from "../../shared/read-store/checkpoint-watcher.ts";
import type { ReadStore } from "../../shared/read-store/read-store.port.ts";
import { timedProgress } from "../../shared/read-store/timed-progress.ts";
import { tracedProgress } from "../../shared/read-store/traced-progress.ts";
import { acceptInvitationsOnRegistration } from "../../shared/sharing/accept-invitations.ts";
import type { WebhookDeliveries } from "../../shared/webhooks/webhook-deliveries.port.ts";
import type { CommandApiPorts } from "../command-api/command-api-ports.ts";
import { registerOAuth } from "../command-api/oauth/oauth.routes.ts";
import { signInRoutes, type SignInPorts } from "../command-api/routes/sign-in.routes.ts";
import { registerMcp } from "../mcp/mcp.routes.ts";
import { heavyWorkFor, type Clock, type HeavyWork } from "./api-server.ts";
import { readModelCopiesFor, sentMailFor, storeJournalsFor, type Erasure } from "./erasure.ts";
import { oauthKeysFor, unsubscribeTokensFor, webhookSealerFor } from "./secret-keys.ts";
import { appendingStore, openOAuthStore } from "./write-stores.ts";

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

/** What the sign-in routes use: the OpenID provider when configured, and the secret sessions are signed with. */
function signInPortsFor(
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

/**
 * The routes by which people and agents get in, beside the command API's: the OAuth authorization server (when
 * the server has its keys, oauthKeysFor), MCP (/mcp), and sign-in (OpenID Connect, sign-in links, sign-out).
 * `clientMetadataCa`: certificates the client metadata fetch trusts besides the system's (tests).
 */
export async function registerAccessRoutes(
  app: App,
  config: Config,
  ports: { command: CommandApiPorts; authenticator: Authenticator; rateLimits: RateLimits; clientMetadataCa?: string },
): Promise<void> {
  const { command: commandPorts, authenticator, rateLimits } = ports;
  const oauthKeys = oauthKeysFor(config);
  if (oauthKeys) {
    const oauth = {
      oauthKeys,
      oauthStore: await openOAuthStore(config),
      allowPrivateNetworks: config.OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_NETWORKS,
      trustProxy: config.TRUST_PROXY !== undefined,
      ...(ports.clientMetadataCa ? { metadataCa: ports.clientMetadataCa } : {}),
    };
    await registerOAuth(app, {
      ...commandPorts,
      ...oauth,
      authenticator,
      publicBaseUrl: config.PUBLIC_BASE_URL ?? null,
    });
  }
  registerMcp(app, {
    ...commandPorts,
    authenticator,
    rateLimits,
    publicBaseUrl: config.PUBLIC_BASE_URL ?? null,
    allowedHosts: config.ALLOWED_HOSTS ?? [],
    authorizationServer: oauthKeys !== null,
  });
  const { eventStore, clock, logger } = commandPorts;
  signInRoutes(app, signInPortsFor(config, { authenticator, eventStore, clock }, logger));
}
