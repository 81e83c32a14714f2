// What every API process builds alike, whichever side it serves (the command API, a query node, the all-in-one):
// the HTTP app with the config's limits, the rate limits, the authenticator and the worker pool. Nothing here
// reaches the event store or the command side.
import type { Logger } from "pino";
import { InMemoryRateLimitCounters } from "../../shared/adapters/in-process/in-memory.rate-limit-counters.ts";
import { NatsRateLimitCounters } from "../../shared/adapters/nats/nats-kv.rate-limit-counters.ts";
import { Authenticator } from "../../shared/auth/authenticator.ts";
import { sessionKeyFor } from "../../shared/auth/session-key.ts";
import { SessionVerifier } from "../../shared/auth/session-verifier.ts";
import type { WriteSide } from "../../shared/auth/write-side.port.ts";
import { rateLimitPolicies, type Config } from "../../shared/config/config.ts";
import { createApp, type App } from "../../shared/http/create-app.ts";
import type { RateLimits } from "../../shared/http/rate-limit.ts";
import type { Metrics } from "../../shared/metrics/metrics.port.ts";
import type { ProjectionProgress } from "../../shared/read-store/checkpoint-watcher.ts";
import type { ReadModels } from "../../shared/read-store/read-store.port.ts";
import { CallerSlots } from "../../shared/workers/caller-slots.ts";
import { WorkerPool } from "../../shared/workers/worker-pool.ts";
import { oauthKeysFor } from "./secret-keys.ts";

export type Clock = () => Date;

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
