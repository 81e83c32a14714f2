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
  batchProjected(batch: { readonly position: number; readonly count: number; readonly lastOccurredAt: string; readonly seconds: number }): void;
}

/** What became of one delivery of a message: `started_before` means an earlier delivery owns the attempt. */
export type DeliveryOutcome = "sent" | "failed" | "started_before" | "not_owed";

export interface DeliveryMetrics {
  delivery(outcome: DeliveryOutcome): void;
}

/** What became of one webhook delivery attempt: `retrying` means it failed and will be tried again. */
export type WebhookOutcome = "delivered" | "retrying" | "failed";

export interface WebhookMetrics {
  webhookDelivery(outcome: WebhookOutcome): void;
  /** The delivery queue as last seen: pending rows and the age of the oldest. */
  webhookQueue(pending: number, oldestAgeSeconds: number): void;
}

/** Every port above, plus the text a scraper reads: one per process. */
export interface Metrics extends RequestMetrics, AppendMetrics, ConsistencyWaitMetrics, ProjectionMetrics, DeliveryMetrics, WebhookMetrics {
  cache(name: CacheName): CacheMetrics;
  exposition(): Promise<{ readonly contentType: string; readonly body: string }>;
}
