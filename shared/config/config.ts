// The one place that reads process.env: every variable is parsed by one zod schema at start-up.
import { z } from "zod";

const optionalUrl = z.string().url().optional();

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  AUTH_SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  AUTH_JWKS_URL: optionalUrl,
  /** EventStoreDB / KurrentDB (`esdb://host:2113?tls=false`): the event store instead of DATA_DIR/events.sqlite. */
  EVENTSTORE_URL: z.string().regex(/^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover|kdb|kdb\+discover):\/\//, "must be an esdb:// or kurrentdb:// connection string").optional(),
  /** Streams of this deployment on a shared EventStoreDB: stored as `<namespace>:<stream>`, the rest unseen. */
  EVENTSTORE_NAMESPACE: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "letters, digits, '_' and '-', at most 64").optional(),
  /** MongoDB (`mongodb://host:27017/workspace?replicaSet=rs0`): the read models and image bytes (GridFS) instead of DATA_DIR. */
  MONGODB_URL: z.string().regex(/^mongodb(\+srv)?:\/\//, "must be a mongodb:// or mongodb+srv:// connection string").optional(),
  NATS_URL: z.string().min(1).optional(),
  SMTP_URL: optionalUrl,
  /** The address users reach the service at, for links in emails; the server's own URL when unset. */
  PUBLIC_BASE_URL: optionalUrl,
  /** Where a query node started on its own reaches the command API (its internal routes). */
  COMMAND_API_URL: optionalUrl,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
  /** A request not fully received in this time (headers and body) is answered 408 and its connection closed. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(300_000),
  CONSISTENCY_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** How often an idle change feed (GET /changes) sends a comment line, so proxies keep it open. */
  CHANGE_FEED_HEARTBEAT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  /** Change feeds one user may hold open at once on one query process; the next is refused with 429. */
  CHANGE_FEED_MAX_PER_USER: z.coerce.number().int().min(1).max(1_000).default(5),
  /** Days a deleted page stays in the trash before it is purged from every read model. */
  TRASH_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Where the projector and the notifier, which have no HTTP port, serve GET /metrics; not served when unset. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
});

export type Config = z.infer<typeof configSchema>;

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
