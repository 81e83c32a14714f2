// The outbox publisher: follows the global log from a position of its own, kept with the bus, and publishes each
// event as an integration event (ids only). It runs beside the projector, not inside its batches: while the bus is
// down the read models keep up and writes answer as usual; publishing retries with backoff and, once the bus
// answers, catches up from its position. It never runs ahead of the read models (it waits for them to reach a
// batch before publishing it), so a consumer that looks up what a message names finds it.
import { batchTrace } from "../../shared/tracing/batch-trace.ts";
import { tracing } from "../../shared/tracing/tracing.port.ts";
import type { Logger } from "pino";
import { BusUnavailableError } from "../../shared/bus/bus-unavailable.ts";
import type { Bus } from "../../shared/bus/bus.port.ts";
import { toBusMessage } from "../../shared/bus/integration-events.ts";
import {
  DEFAULT_SUBSCRIPTION_BYTES,
  type EventStore,
  type RecordedEvent,
  type Subscription,
} from "../../shared/event-store/event-store.port.ts";
import { parseRecorded } from "../../shared/events.ts";
import type { PublisherMetrics } from "../../shared/metrics/metrics.port.ts";
import { publishNotificationMessages } from "../../shared/notifications/notification-messages.ts";
import type { NotificationsView } from "../../shared/notifications/notifications.view.ts";
import type { ProjectionProgress } from "../../shared/read-store/checkpoint-watcher.ts";

export interface PublisherOptions {
  readonly eventStore: EventStore;
  readonly bus: Bus;
  /** The read models' progress: a batch is published once they have reached it. */
  readonly projection: ProjectionProgress;
  /** Where the notifications a batch made are read, to publish `notification.created` for each; none without it. */
  readonly notifications?: Pick<NotificationsView, "producedBetween">;
  readonly logger: Logger;
  readonly metrics?: PublisherMetrics;
  readonly batchSize?: number;
  /** Bytes of events read at a time at most (DEFAULT_SUBSCRIPTION_BYTES): messages carry ids, the events do not. */
  readonly batchBytes?: number;
  /** First wait after a failure; doubled at each failure in a row, up to maxRetryDelayMs. */
  readonly retryDelayMs?: number;
  readonly maxRetryDelayMs?: number;
}

export class Publisher {
  private subscription: Subscription | null = null;
  private stopped = true;
  private position = 0;
  /** Where to start when the bus keeps no position: the read models' checkpoint when this publisher started. */
  private fallback: number | null = null;
  private failures = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: PublisherOptions) {}

  /** Position of the last event the bus acknowledged. */
  get published(): number {
    return this.position;
  }

  /** Whether the last attempt to publish failed (the bus is unreachable or refusing). */
  get failing(): boolean {
    return this.failures > 0;
  }

  /**
   * Starts at the position kept with the bus; a bus that has none (a new deployment, or one moving from
   * publishing inside the projector's batches) starts at the read models' checkpoint as it was when this
   * publisher started: what they held then was published before, or is history no consumer waits for.
   */
  async start(): Promise<void> {
    this.stopped = false;
    try {
      // Taken at the first try, before the bus is asked: a deployment whose bus is away from the start
      // publishes what was written meanwhile once it answers, not only what follows.
      this.fallback ??= await this.options.projection.current();
      this.position = (await this.options.bus.publishedPosition()) ?? this.fallback;
    } catch (error) {
      this.fail(error);
      return;
    }
    this.follow();
  }

  private follow(): void {
    if (this.stopped) return;
    const subscription = this.options.eventStore.subscribe(this.position, (batch) => this.publish(batch), {
      batchSize: this.options.batchSize ?? 500,
      maxBytes: this.options.batchBytes ?? DEFAULT_SUBSCRIPTION_BYTES,
    });
    this.subscription = subscription;
    subscription.done.then(
      () => undefined,
      (error: unknown) => this.fail(error),
    );
  }

  private fail(error: unknown): void {
    this.failures += 1;
    this.options.metrics?.publishFailed();
    const first = this.options.retryDelayMs ?? 1_000;
    // A bus that is away refuses at once, without a round trip: polled at the first delay, so publishing
    // resumes within a second of its return, and said once, not at every poll.
    const away = error instanceof BusUnavailableError;
    const delay = away
      ? first
      : Math.min(first * 2 ** Math.min(this.failures - 1, 16), this.options.maxRetryDelayMs ?? 30_000);
    if (!away || this.failures === 1)
      this.options.logger.warn(
        { event: "publisher.failed", err: error, position: this.position, failures: this.failures, retryInMs: delay },
        "publishing to the bus failed; the read models go on",
      );
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.stopped) return;
      if (this.subscription === null) void this.start();
      else this.follow();
    }, delay);
    this.timer.unref();
  }

  private async publish(batch: readonly RecordedEvent[]): Promise<void> {
    const last = batch[batch.length - 1];
    if (!last) return;
    while (!this.stopped && !(await this.options.projection.waitFor(last.position, 1_000)));
    if (this.stopped) return;
    const events = batch.map(parseRecorded);
    const messages = events.map(toBusMessage);
    await tracing().inSpan(
      "bus.publish",
      { kind: "producer", ...batchTrace(batch), attributes: { "messaging.batch.message_count": messages.length } },
      () => this.options.bus.publish(messages),
    );
    if (this.options.notifications)
      await publishNotificationMessages(this.options.notifications, events, (notices) =>
        this.options.bus.publish(notices),
      );
    await this.options.bus.savePublishedPosition(last.position);
    this.position = last.position;
    if (this.failures > 0)
      this.options.logger.info({ event: "publisher.recovered", position: last.position, failures: this.failures });
    this.failures = 0;
    this.options.metrics?.published(last.position);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.subscription?.stop();
    this.subscription = null;
  }
}
