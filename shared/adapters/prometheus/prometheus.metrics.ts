// The metrics ports over prom-client, with a registry of its own (never prom-client's global one), so several
// servers in one process, as in the tests, each expose only what they counted.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type {
  CacheMetrics,
  CacheName,
  ConsistencyWaitKind,
  DeliveryOutcome,
  Metrics,
  WebhookOutcome,
} from "../../metrics/metrics.port.ts";

/** Seconds, from a cached read (~1 ms) to the longest consistency wait (CONSISTENCY_WAIT_MS at most 60 s). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class PrometheusMetrics implements Metrics {
  private readonly registry = new Registry();
  private readonly requests;
  private readonly appends;
  private readonly projectorPosition;
  private readonly projectorLag;
  private readonly projectorCommitted;
  private readonly projectorEvents;
  private readonly projectorBatches;
  private readonly waits;
  private readonly deliveries;
  private readonly malformed;
  private readonly handlerFailures;
  private readonly parked;
  private readonly dependencyUp;
  private readonly projectorStalled;
  private readonly projectorFailures;
  private readonly projectorParked;
  private readonly publishedPosition;
  private readonly publishFailures;
  private readonly hits;
  private readonly misses;
  private readonly webhookDeliveries;
  private readonly webhookPending;
  private readonly webhookQueueAge;
  private readonly now: () => number;

  constructor(options: { now?: () => number; defaultMetrics?: boolean } = {}) {
    this.now = options.now ?? Date.now;
    const registers = [this.registry];
    this.requests = new Histogram({
      name: "http_request_duration_seconds",
      help: "HTTP requests by route pattern, method and status, and how long they took",
      labelNames: ["method", "route", "status"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.appends = new Counter({
      name: "events_appended_total",
      help: "Events this process appended to the event store, by event type",
      labelNames: ["type"] as const,
      registers,
    });
    this.projectorPosition = new Gauge({
      name: "projector_position",
      help: "Global log position of the projector's last committed batch",
      registers,
    });
    this.projectorLag = new Gauge({
      name: "projector_lag_seconds",
      help: "At the commit of the last batch: commit time minus the occurredAt of its last event",
      registers,
    });
    this.projectorCommitted = new Gauge({
      name: "projector_last_batch_timestamp_seconds",
      help: "Unix time the projector last committed a batch",
      registers,
    });
    this.projectorEvents = new Counter({
      name: "projector_events_total",
      help: "Events projected into the read models",
      registers,
    });
    this.projectorBatches = new Histogram({
      name: "projector_batch_duration_seconds",
      help: "Time to apply and commit one batch",
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.waits = new Histogram({
      name: "consistency_wait_seconds",
      help: "Waits for the read models to reach a position: kind write (a write before it answers) or read (X-Consistency-Token); outcome reached or timeout",
      labelNames: ["kind", "outcome"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.deliveries = new Counter({
      name: "notifier_deliveries_total",
      help: "Invitation messages the notifier handled, by outcome",
      labelNames: ["outcome"] as const,
      registers,
    });
    this.malformed = new Counter({
      name: "bus_malformed_messages_total",
      help: "Bus messages a consumer group could not read, acknowledged and passed over, by group",
      labelNames: ["group"] as const,
      registers,
    });
    this.handlerFailures = new Counter({
      name: "bus_handler_failures_total",
      help: "Bus messages a consumer group's handler failed (each delivered again later, up to the cap), by group",
      labelNames: ["group"] as const,
      registers,
    });
    this.parked = new Counter({
      name: "bus_parked_messages_total",
      help: "Bus messages that failed at every delivery up to the cap and were parked (alert on any increase), by group",
      labelNames: ["group"] as const,
      registers,
    });
    this.dependencyUp = new Gauge({
      name: "dependency_up",
      help: "1 while a dependency the process serves without (bus: NATS) is reachable, else 0",
      labelNames: ["dependency"] as const,
      registers,
    });
    this.publishedPosition = new Gauge({
      name: "bus_published_position",
      help: "Global log position of the last event the bus acknowledged from this process's publisher",
      registers,
    });
    this.publishFailures = new Counter({
      name: "bus_publish_failures_total",
      help: "Failed attempts to publish to the bus (each retried with backoff)",
      registers,
    });
    this.projectorStalled = new Gauge({
      name: "projector_stalled",
      help: "1 while the same batch has failed again and again (a poison batch holding back every later event), else 0",
      registers,
    });
    this.projectorFailures = new Counter({
      name: "projector_batch_failures_total",
      help: "Projection batches that failed (each retried with backoff)",
      registers,
    });
    this.projectorStalled.set(0);
    this.projectorParked = new Counter({
      name: "projector_parked_events_total",
      help: "Events a projection could not apply and parked (once per projection); the others applied them",
      registers,
    });
    this.hits = new Counter({
      name: "cache_hits_total",
      help: "Lookups answered from a cache",
      labelNames: ["cache"] as const,
      registers,
    });
    this.misses = new Counter({
      name: "cache_misses_total",
      help: "Lookups a cache could not answer",
      labelNames: ["cache"] as const,
      registers,
    });
    this.webhookDeliveries = new Counter({
      name: "webhook_deliveries_total",
      help: "Webhook delivery attempts, by outcome (delivered, retrying, failed)",
      labelNames: ["outcome"] as const,
      registers,
    });
    this.webhookPending = new Gauge({
      name: "webhook_deliveries_pending",
      help: "Webhook deliveries waiting to be sent or retried",
      registers,
    });
    this.webhookQueueAge = new Gauge({
      name: "webhook_queue_oldest_age_seconds",
      help: "Age of the oldest pending webhook delivery (0 when none)",
      registers,
    });
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  request(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe({ method, route, status: String(status) }, seconds);
  }

  appended(types: readonly string[]): void {
    for (const type of types) this.appends.inc({ type });
  }

  batchProjected(batch: {
    readonly position: number;
    readonly count: number;
    readonly lastOccurredAt: string;
    readonly seconds: number;
  }): void {
    const now = this.now();
    this.projectorPosition.set(batch.position);
    this.projectorLag.set(Math.max(0, (now - Date.parse(batch.lastOccurredAt)) / 1000));
    this.projectorCommitted.set(now / 1000);
    this.projectorEvents.inc(batch.count);
    this.projectorBatches.observe(batch.seconds);
    this.projectorStalled.set(0);
  }

  batchFailed(stalled: boolean): void {
    this.projectorFailures.inc();
    this.projectorStalled.set(stalled ? 1 : 0);
  }

  eventsParked(count: number): void {
    this.projectorParked.inc(count);
    // A batch that parks commits: the projector is moving again.
    this.projectorStalled.set(0);
  }

  consistencyWait(kind: ConsistencyWaitKind, seconds: number, reached: boolean): void {
    this.waits.observe({ kind, outcome: reached ? "reached" : "timeout" }, seconds);
  }

  delivery(outcome: DeliveryOutcome): void {
    this.deliveries.inc({ outcome });
  }

  malformedMessage(group: string): void {
    this.malformed.inc({ group });
  }

  handlerFailed(group: string): void {
    this.handlerFailures.inc({ group });
  }

  messageParked(group: string): void {
    this.parked.inc({ group });
  }

  dependency(name: "bus", up: boolean): void {
    this.dependencyUp.set({ dependency: name }, up ? 1 : 0);
  }

  published(position: number): void {
    this.publishedPosition.set(position);
  }

  publishFailed(): void {
    this.publishFailures.inc();
  }

  webhookDelivery(outcome: WebhookOutcome): void {
    this.webhookDeliveries.inc({ outcome });
  }

  webhookQueue(pending: number, oldestAgeSeconds: number): void {
    this.webhookPending.set(pending);
    this.webhookQueueAge.set(oldestAgeSeconds);
  }

  cache(name: CacheName): CacheMetrics {
    const hits = this.hits.labels({ cache: name });
    const misses = this.misses.labels({ cache: name });
    // Both series exist from the start, so a ratio is defined before the first miss.
    hits.inc(0);
    misses.inc(0);
    return { hit: () => hits.inc(), miss: () => misses.inc() };
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
