// The one place that reads process.env: every variable is parsed by one zod schema at start-up.
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { z } from "zod";
import { rateLimitSpecSchema, type RateLimitPolicies } from "../rate-limit/rate-limit-policy.ts";

const optionalUrl = z.string().url().optional();

/** One entry of TRUST_PROXY as fastify (proxy-addr) reads it: a name, an address, or an address/prefix. */
function trustedProxy(entry: string): boolean {
  if (["loopback", "linklocal", "uniquelocal"].includes(entry)) return true;
  const [address = "", prefix, extra] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/** https, or http to this machine itself (local providers and tests). */
function isSecureOrLoopback(url: URL): boolean {
  return (
    url.protocol === "https:" ||
    (url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname))
  );
}

/** The W3C baggage-like lists of the OTEL_* variables: `key=value` pairs, comma-separated, values URL-encoded. */
const otelKeyValues = z.string().transform((list, context) => {
  const pairs: Record<string, string> = {};
  for (const entry of list.split(",")) {
    if (entry.trim() === "") continue;
    const at = entry.indexOf("=");
    const key = at > 0 ? entry.slice(0, at).trim() : "";
    if (key === "") {
      context.addIssue({ code: "custom", message: "key=value pairs, comma-separated" });
      return z.NEVER;
    }
    try {
      pairs[key] = decodeURIComponent(entry.slice(at + 1).trim());
    } catch {
      context.addIssue({ code: "custom", message: `the value of ${key} is not URL-encoded` });
      return z.NEVER;
    }
  }
  return pairs;
});

const OIDC_SETTINGS = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;

export const configSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("127.0.0.1"),
    DATA_DIR: z.string().min(1).default("./data"),
    AUTH_SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    AUTH_JWKS_URL: optionalUrl,
    /**
     * The organisation's OpenID provider people sign in through (/auth/login): its issuer (discovery at
     * `<issuer>/.well-known/openid-configuration`; https, or http on a loopback address for local use), and the
     * client registered there for this server, whose redirect URI is `<PUBLIC_BASE_URL>/auth/callback`. All three
     * or none; sessions it starts are signed with the session secret, so not with AUTH_JWKS_URL.
     */
    OIDC_ISSUER: z
      .url()
      .refine((value) => isSecureOrLoopback(new URL(value)), "must be https (http only on a loopback address)")
      .optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    /**
     * EventStoreDB / KurrentDB (`kurrentdb://host:2113?tls=false`): the event store instead of DATA_DIR/events.sqlite.
     * The older `esdb://` still connects, with a deprecation warning from the client in every process.
     */
    EVENTSTORE_URL: z
      .string()
      .regex(
        /^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover|kurrent|kurrent\+discover|kdb|kdb\+discover):\/\//,
        "must be a kurrentdb:// connection string",
      )
      .optional(),
    /** Streams of this deployment on a shared EventStoreDB: stored as `<namespace>:<stream>`, the rest unseen. */
    EVENTSTORE_NAMESPACE: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "letters, digits, '_' and '-', at most 64")
      .optional(),
    /** MongoDB (`mongodb://host:27017/workspace?replicaSet=rs0`): the read models and image bytes (GridFS) instead of DATA_DIR. */
    MONGODB_URL: z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, "must be a mongodb:// or mongodb+srv:// connection string")
      .optional(),
    NATS_URL: z.string().min(1).optional(),
    /** How long the NATS stream keeps an integration event; a consumer away longer misses what expired. */
    NATS_STREAM_MAX_AGE_HOURS: z.coerce
      .number()
      .min(1)
      .max(24 * 365)
      .default(7 * 24),
    /** How large the NATS stream may grow; past it the oldest messages are dropped. */
    NATS_STREAM_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024 * 1024)
      .default(1024 * 1024 * 1024),
    SMTP_URL: optionalUrl,
    /** The address users reach the service at, for links in emails; the server's own URL when unset. */
    PUBLIC_BASE_URL: optionalUrl,
    /**
     * Further names clients reach the service by (`host` or `host:port`, comma-separated), beside PUBLIC_BASE_URL's:
     * /mcp answers only a Host (and a browser's Origin) among them; with neither set, only loopback names
     * (localhost, 127.0.0.1, [::1]), against DNS rebinding.
     */
    ALLOWED_HOSTS: z
      .string()
      .transform((list) =>
        list
          .split(",")
          .map((entry) => entry.trim().toLowerCase())
          .filter((entry) => entry !== ""),
      )
      .refine(
        (hosts) => hosts.every((host) => /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/.test(host)),
        "host names or host:port, comma-separated",
      )
      .optional(),
    /**
     * The bearer token GET /metrics asks for (at least 32 characters); when unset, /metrics answers loopback
     * clients only.
     */
    METRICS_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
    /** Where a query node started on its own reaches the command API (its internal routes). */
    COMMAND_API_URL: optionalUrl,
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(1024 * 1024),
    /** A request not fully received in this time (headers and body) is answered 408 and its connection closed. */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(300_000),
    /**
     * Bytes of events one projection batch holds at most (as well as at most 500 events live, 1,000 in a replay),
     * so one transaction of the read store stays small; a single larger event goes alone.
     */
    PROJECTION_BATCH_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(256 * 1024 * 1024)
      .default(4 * 1024 * 1024),
    CONSISTENCY_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
    /** How often an idle change feed (GET /changes) sends a comment line, so proxies keep it open. */
    CHANGE_FEED_HEARTBEAT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
    /** Change feeds one user may hold open at once on one query process; the next is refused with 429. */
    CHANGE_FEED_MAX_PER_USER: z.coerce.number().int().min(1).max(1_000).default(5),
    /** Days a deleted page stays in the trash before it is purged from every read model. */
    TRASH_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /**
     * Per-caller budgets, one variable per class: `<quota>/<window>` (window in s, m, h or d) or `off`. Counted
     * per API token, else per user, else per client address; shared through NATS KV when NATS_URL is set.
     */
    RATE_LIMIT_READ: rateLimitSpecSchema.prefault("12000/1m"),
    RATE_LIMIT_WRITE: rateLimitSpecSchema.prefault("3000/1m"),
    RATE_LIMIT_SEARCH: rateLimitSpecSchema.prefault("1200/1m"),
    RATE_LIMIT_UPLOAD: rateLimitSpecSchema.prefault("300/1m"),
    RATE_LIMIT_IMPORT: rateLimitSpecSchema.prefault("60/1m"),
    /** Adding workspace members and granting access, counted per user (their tokens and sessions together). */
    RATE_LIMIT_SHARING: rateLimitSpecSchema.prefault("60/1h"),
    /** What all the tokens and sessions of one user may spend together in a class: this many times one caller's quota. */
    RATE_LIMIT_USER_FACTOR: z.coerce.number().int().min(1).max(1_000).default(2),
    /** Active (not revoked, not expired) API tokens one user may hold; one more is refused 409 quota_exceeded. */
    QUOTA_TOKENS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(100),
    /** Bytes of images (uploads, duplicates' copies, imports) one workspace may store on its live pages. */
    QUOTA_BLOB_BYTES_PER_OWNER: z.coerce
      .number()
      .int()
      .min(1024 * 1024)
      .max(Number.MAX_SAFE_INTEGER)
      .default(5 * 1024 * 1024 * 1024),
    /** Proxies trusted to name the client in X-Forwarded-For (`loopback`, `10.0.0.0/8`, comma-separated); none when unset. */
    TRUST_PROXY: z
      .string()
      .min(1)
      .refine(
        (list) => list.split(",").every((entry) => trustedProxy(entry.trim())),
        "addresses, CIDR ranges or loopback, linklocal, uniquelocal, comma-separated",
      )
      .optional(),
    /** Image decodes (upload and import checks) running at once in one command process: each takes a core. By
     * default one fewer than the cores, so the event loop always has one to itself. */
    IMAGE_DECODE_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .default(Math.max(1, availableParallelism() - 1)),
    /** Uploads that may wait for a decode; one more is refused with 503 and Retry-After (imports always wait). */
    IMAGE_DECODE_QUEUE: z.coerce.number().int().min(0).max(1_000).default(16),
    /** The largest file attached to a page (POST /pages/{pageId}/attachments, and each attachment of a vault import). */
    ATTACHMENT_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(4 * 1024 * 1024 * 1024)
      .default(50 * 1024 * 1024),
    /** How long one note of a vault import may take to parse and rewrite (a task of the worker pool); past it the
     * note is skipped and reported as too complex to read. */
    IMPORT_NOTE_TIME_LIMIT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    /** Threads of the process's worker pool for CPU-heavy work on users' data (import and export parsing, export
     * compression, diffs); by default one fewer than the cores, so the event loop always has one to itself. */
    WORKER_THREADS: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .default(Math.max(1, availableParallelism() - 1)),
    /** How long one task of the worker pool may run before its thread is terminated (the import's notes have
     * IMPORT_NOTE_TIME_LIMIT_MS). */
    WORKER_TASK_TIME_LIMIT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    /** The heap (MB) each thread of the worker pool may grow to; a task needing more fails as too large. */
    WORKER_MEMORY_MB: z.coerce.number().int().min(16).max(16_384).default(1_024),
    /** Tasks that may wait for a thread of the worker pool; one more is refused with 503 and Retry-After. */
    WORKER_QUEUE: z.coerce.number().int().min(0).max(10_000).default(64),
    /** Tasks of the worker pool one caller (a user; a share link's owner for its anonymous readers) may hold,
     * running and waiting; one more is refused with 429 too_many_tasks and Retry-After. */
    WORKER_TASKS_PER_CALLER: z.coerce.number().int().min(1).max(10_000).default(4),
    /** Threads of the worker pool one caller may use at once; by default half of them, at least one. */
    WORKER_THREADS_PER_CALLER: z.coerce.number().int().min(1).max(64).optional(),
    /** Diffs (GET /pages/{pageId}/diff and the MCP diff_page tool together) one user may run at once in a process:
     * each reads two whole versions before its task takes a worker; one more is refused with 429 too_many_tasks. */
    DIFFS_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
    /** Vault exports one user may run at once on a query process; one more is refused with 429. */
    EXPORT_MAX_PER_USER: z.coerce.number().int().min(1).max(100).default(1),
    /** Vault exports a query process runs at once; one more is refused with 503 and Retry-After. */
    EXPORT_MAX_CONCURRENT: z.coerce.number().int().min(1).max(1_000).default(4),
    /** The largest zip POST /imports/obsidian takes, as sent (it is spooled to DATA_DIR/spool, not held in memory). */
    IMPORT_ZIP_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024 * 1024)
      .default(200 * 1024 * 1024),
    /** What the notes and images of one zip may expand to in all: what the import reads into memory. */
    IMPORT_ZIP_MAX_UNCOMPRESSED_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(4 * 1024 * 1024 * 1024)
      .default(50 * 1024 * 1024),
    /** How many times its compressed size an entry of a zip may expand to (past 1 MB): more is refused as a zip bomb. */
    IMPORT_ZIP_MAX_RATIO: z.coerce.number().min(1).max(10_000).default(100),
    /** Where the projector and the notifier, which have no HTTP port, serve GET /metrics; not served when unset. */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /** Webhooks may call private, loopback and link-local addresses (local development and tests only). */
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: z
      .enum(["true", "false"])
      .default("false")
      .transform((value) => value === "true"),
    /**
     * The authorization server may fetch Client ID Metadata Documents from private, loopback and link-local
     * addresses (local development only): an https client id on such an address is refused otherwise.
     */
    OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_NETWORKS: z
      .enum(["true", "false"])
      .default("false")
      .transform((value) => value === "true"),
    /** Key material webhook secrets are sealed with; the session secret when unset (required with AUTH_JWKS_URL alone). */
    WEBHOOK_SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
    /** How often a query process reports the share-link views it counted to the write side (one event per link and report). */
    SHARE_LINK_VIEW_FLUSH_MS: z.coerce.number().int().min(10).max(600_000).default(10_000),
    /**
     * The key-encryption key that wraps every data key of the key store (personal data is sealed under those), at
     * least 32 characters; the embedded default keeps one in DATA_DIR/erasure-kek. Required with EVENTSTORE_URL or
     * MONGODB_URL. Losing it loses every sealed field: back it up apart from the data.
     */
    ERASURE_KEK: z.string().min(32, "must be at least 32 characters").optional(),
    /** How long a process keeps a data key it has read (bounded in count too); a key destroyed elsewhere is still
     * used by a process that cached it for at most this long. */
    ERASURE_KEY_CACHE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
    /** The hour (UTC, 0-23) at which the notifier sends each day's notification digests. */
    NOTIFICATION_DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(7),
    /**
     * Key material the unsubscribe links of notification emails are signed with; the session secret when unset.
     * Every command API, query API and notifier needs the same value.
     */
    NOTIFICATION_UNSUBSCRIBE_KEY: z.string().min(32, "must be at least 32 characters").optional(),
    /** How long a notification email's unsubscribe link works. */
    NOTIFICATION_UNSUBSCRIBE_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
    /** How long delivery records are kept. */
    WEBHOOK_DELIVERY_RETENTION_DAYS: z.coerce.number().min(1).max(365).default(7),
    /** The longest wait before the first retry of a delivery; each later wait doubles, up to a day. */
    WEBHOOK_FIRST_RETRY_MS: z.coerce.number().int().min(10).max(10_000).default(10_000),
    /** How long a notifier holds a delivery it is sending before another may send it again. */
    WEBHOOK_LEASE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
    /** Webhooks one user may have at once; one more answers 409 quota_exceeded. */
    WEBHOOKS_PER_USER: z.coerce.number().int().min(1).max(10_000).default(50),
    /** Replays of one webhook queued or under way at once; one more answers 409 quota_exceeded. */
    WEBHOOK_REPLAYS_PER_WEBHOOK: z.coerce.number().int().min(1).max(100).default(1),
    /** Undelivered deliveries a replay lets one webhook have queued; the rest are matched from the log as these go. */
    WEBHOOK_REPLAY_QUEUE: z.coerce.number().int().min(1).max(10_000).default(100),
    /** Deliveries of one owner's webhooks in flight at once across notifiers: one user's slow endpoints cannot take every slot. */
    WEBHOOK_OWNER_IN_FLIGHT: z.coerce.number().int().min(1).max(1_000).default(4),
    /** OpenTelemetry (docs/operations/tracing.md): traces are exported only when one of the endpoints or
     * OTEL_TRACES_EXPORTER=otlp is set, and never with OTEL_SDK_DISABLED=true. */
    OTEL_SDK_DISABLED: z
      .enum(["true", "false"])
      .default("false")
      .transform((value) => value === "true"),
    OTEL_TRACES_EXPORTER: z.enum(["otlp", "none"]).optional(),
    /** The collector's base URL: traces go to `<endpoint>/v1/traces`. */
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
    /** The traces URL itself, used as given (wins over OTEL_EXPORTER_OTLP_ENDPOINT). */
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalUrl,
    /** Headers sent to the collector (`key=value,key2=value2`, values URL-encoded): often a credential, never logged. */
    OTEL_EXPORTER_OTLP_HEADERS: otelKeyValues.optional(),
    OTEL_EXPORTER_OTLP_TRACES_HEADERS: otelKeyValues.optional(),
    OTEL_EXPORTER_OTLP_TIMEOUT: z.coerce.number().int().min(100).max(600_000).default(10_000),
    /** The service.name of this process's spans; by default `workspace-<service>` (all-in-one, command-api, ...). */
    OTEL_SERVICE_NAME: z.string().min(1).optional(),
    /** Further resource attributes (`deployment.environment=prod,service.version=1.2`). */
    OTEL_RESOURCE_ATTRIBUTES: otelKeyValues.optional(),
    OTEL_TRACES_SAMPLER: z
      .enum([
        "always_on",
        "always_off",
        "traceidratio",
        "parentbased_always_on",
        "parentbased_always_off",
        "parentbased_traceidratio",
      ])
      .default("parentbased_always_on"),
    /** The ratio of the traceidratio samplers, 0 to 1. */
    OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
    /** How long finished spans wait before they are sent in one export (ms). */
    OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(1).max(600_000).default(5_000),
    /** Finished spans a process holds for export at most; past it new ones are dropped. */
    OTEL_BSP_MAX_QUEUE_SIZE: z.coerce.number().int().min(1).max(1_000_000).default(2_048),
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: z.coerce.number().int().min(1).max(1_000_000).default(512),
  })
  .superRefine((config, context) => {
    const given = OIDC_SETTINGS.filter((name) => config[name] !== undefined);
    if (given.length > 0 && given.length < OIDC_SETTINGS.length) {
      const missing = OIDC_SETTINGS.filter((name) => config[name] === undefined);
      context.addIssue({
        code: "custom",
        path: [missing[0] ?? "OIDC_ISSUER"],
        message: `OpenID Connect sign-in needs ${OIDC_SETTINGS.join(", ")} together; ${missing.join(", ")} missing`,
      });
    }
    if (given.length > 0 && config.AUTH_JWKS_URL !== undefined) {
      context.addIssue({
        code: "custom",
        path: ["OIDC_ISSUER"],
        message: "OpenID Connect sign-in signs sessions with the session secret; it cannot be used with AUTH_JWKS_URL",
      });
    }
  });

/** The OpenID provider people sign in through, when configured. */
export interface OidcSettings {
  readonly issuer: URL;
  readonly clientId: string;
  readonly clientSecret: string;
}

export function oidcSettings(config: Config): OidcSettings | null {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret } = config;
  return issuer && clientId && clientSecret ? { issuer: new URL(issuer), clientId, clientSecret } : null;
}

export type Config = z.infer<typeof configSchema>;

export function rateLimitPolicies(config: Config): RateLimitPolicies {
  return {
    read: config.RATE_LIMIT_READ,
    write: config.RATE_LIMIT_WRITE,
    search: config.RATE_LIMIT_SEARCH,
    upload: config.RATE_LIMIT_UPLOAD,
    import: config.RATE_LIMIT_IMPORT,
    sharing: config.RATE_LIMIT_SHARING,
  };
}

/** DATA_DIR and the directories in it are the service user's alone (its files are created 0600). */
export const PRIVATE_DIRECTORY = 0o700;

export class ConfigError extends Error {}

/** Parses the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const relevant = Object.fromEntries(
    Object.keys(configSchema.shape)
      .map((key) => [key, env[key] === "" ? undefined : env[key]] as const)
      .filter(([, value]) => value !== undefined),
  );
  const parsed = configSchema.safeParse(relevant);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
  }
  return parsed.data;
}
