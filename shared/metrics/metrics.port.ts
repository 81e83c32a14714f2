// What the services report for monitoring, as small ports each consumer takes only the part of: the core never
// sees a metrics library, and code given none of them (tests, tools) reports nothing and works the same.

/** Hits and misses of one cache; the hit ratio is the reader's division. */
export interface CacheMetrics {
  hit(): void;
  miss(): void;
}

/** A cache that reports nothing, for code constructed without metrics. */
export const unmeasuredCache: CacheMetrics = { hit: () => undefined, miss: () => undefined };

export type CacheName = "access_context" | "verified_session" | "user_seen";

export interface RequestMetrics {
  /** `route` is the route's pattern (`/api/v1/pages/:pageId`), never the URL, so ids do not become labels. */
  request(method: string, route: string, status: number, seconds: number): void;
}

export interface AppendMetrics {
  appended(types: readonly string[]): void;
}

/** `write`: a write waiting for its projection before it answers; `read`: a GET with X-Consistency-Token. */
export type ConsistencyWaitKind = "write" | "read";

export interface ConsistencyWaitMetrics {
  consistencyWait(kind: ConsistencyWaitKind, seconds: number, reached: boolean): void;
}

export interface ProjectionMetrics {
  /** A batch was committed with its checkpoint; `lastOccurredAt` is the occurredAt of its last event. */
  batchProjected(batch: {
    readonly position: number;
    readonly count: number;
    readonly lastOccurredAt: string;
    readonly seconds: number;
  }): void;
  /** A batch failed (it is retried); `stalled`: the same batch has failed again and again. A commit clears it. */
  batchFailed(stalled: boolean): void;
  /** Events a projection parked (shared/read-store/parked-events.port.ts), each counted once per projection. */
  eventsParked(count: number): void;
}

/** What became of one delivery of a message: `started_before` means an earlier delivery owns the attempt. */
export type DeliveryOutcome = "sent" | "failed" | "started_before" | "not_owed";

export interface DeliveryMetrics {
  delivery(outcome: DeliveryOutcome): void;
}

/** The services a process depends on but serves without (the bus): 1 while reachable, else 0. */
export interface DependencyMetrics {
  dependency(name: "bus", up: boolean): void;
}

export interface BusMetrics extends DependencyMetrics {
  /** A message a consumer group could not read (not JSON, not a bus message): acknowledged and passed over. */
  malformedMessage(group: string): void;
  /** A consumer group's handler failed a message (it comes back later, up to the delivery cap). */
  handlerFailed(group: string): void;
  /** A message failed at every delivery up to the cap and was parked: an alert. */
  messageParked(group: string): void;
}

export interface PublisherMetrics {
  /** The bus acknowledged the events up to this global log position. */
  published(position: number): void;
  /** An attempt to publish failed (it is retried with backoff). */
  publishFailed(): void;
}

/** What became of one webhook delivery attempt: `retrying` means it failed and will be tried again. */
export type WebhookOutcome = "delivered" | "retrying" | "failed";

export interface WebhookMetrics {
  webhookDelivery(outcome: WebhookOutcome): void;
  /** The delivery queue as last seen: pending rows and the age of the oldest. */
  webhookQueue(pending: number, oldestAgeSeconds: number): void;
}

/** Every port above, plus the text a scraper reads: one per process. */
export interface Metrics
  extends
    RequestMetrics,
    AppendMetrics,
    ConsistencyWaitMetrics,
    ProjectionMetrics,
    DeliveryMetrics,
    BusMetrics,
    PublisherMetrics,
    WebhookMetrics {
  cache(name: CacheName): CacheMetrics;
  exposition(): Promise<{ readonly contentType: string; readonly body: string }>;
}
