// The webhook worker, run by every notifier (and in process by the all-in-one server). Three loops:
// - follow: reads the global event log from its checkpoint in the delivery store, no further than the read
//   models reach, and writes a pending delivery for each (active webhook, event) that matches: subscribed name,
//   created before the event, inside the webhook's folder, visible to its owner now. Rows and checkpoint are
//   written together; delivery ids derive from (webhook, event), so matching a range twice adds nothing. On
//   UserErased it forgets the erased owner's deliveries, queues and replays (a batch at a time) before its
//   checkpoint passes the event, so a notifier stopped midway forgets them again; the store refuses their rows
//   for events up to the erasure, so another notifier's step over older read models cannot bring any back.
//   `notification.created` is matched from the notifications read model over the same stretch: each
//   notification whose latest change is in it goes to its own user's webhooks only (never to anyone else's).
// - dispatch: leases due rows (one per webhook at a time), checks the owner's access again, signs, sends, and
//   records the outcome; a notifier that dies mid-send leaves a lease that runs out, and the row is sent again
//   with the same webhook-id.
// - replays and retention: works through replays asked for, a batch of each at a time, and only while the
//   webhook has fewer than `replayQueue` deliveries waiting (a replay never floods its receiver: the rest is
//   matched from the log as those go); deletes records past their retention.
// Every loop reads the log in batches bounded by events and bytes and yields to the event loop between batches.
// Several notifiers may run these at once: follow is idempotent, claims are exclusive and fair between owners.
import { randomUUID } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Logger } from "pino";
import type { EventStore } from "../../../shared/event-store/event-store.port.ts";
import { parseRecorded } from "../../../shared/events.ts";
import { userIdSchema } from "../../../shared/kernel/ids.ts";
import type { WebhookMetrics } from "../../../shared/metrics/metrics.port.ts";
import type { ReadStore } from "../../../shared/read-store/read-store.port.ts";
import {
  afterAttempt,
  DELIVERY_TIMEOUT_MS,
  FAILURE_WINDOW_MS,
  type AttemptResult,
  type RetryRules,
} from "../../../shared/webhooks/delivery-rules.ts";
import { notificationIdOfPayload, scopeOfPayload } from "../../../shared/webhooks/webhook-payload.ts";
import type { WebhookSecretSealer } from "../../../shared/webhooks/webhook-secret.ts";
import { signWebhook } from "../../../shared/webhooks/webhook-signature.ts";
import type {
  DeliveryRecord,
  OwnerErasure,
  ReplayJob,
  WebhookDeliveries,
} from "../../../shared/webhooks/webhook-deliveries.port.ts";
import { webhookCommands } from "../../../shared/webhooks/webhook.commands.ts";
import { webhookIdSchema } from "../../../shared/webhooks/webhook.decider.ts";
import type { WebhookRecord } from "../../../shared/webhooks/webhooks.view.ts";
import { WebhookMatcher } from "./webhook-matcher.ts";
import { sendWebhook } from "./webhook-sender.ts";
import { tracing } from "../../../shared/tracing/tracing.port.ts";

const BATCH = 500;
/** Bytes of events one batch of the log holds at most (events weigh up to about 1 MB each). */
const BATCH_BYTES = 4 * 1024 * 1024;
/** Deliveries one step of the live follower may queue at most (events per step times matching webhooks). */
const DELIVERIES_PER_STEP = 2_000;
/** Replays a maintenance step moves by one batch each. */
const REPLAYS_PER_STEP = 16;
const IDLE_MS = 250;
const PURGE_EVERY_MS = 60 * 60_000;
/** Rows one call forgets of an erased owner, and calls a step of the follower makes at most. */
const FORGET_BATCH = 500;
const FORGET_BATCHES_PER_STEP = 20;
const BACKLOG_EVERY_MS = 5_000;

export interface WebhookWorkerOptions {
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly deliveries: WebhookDeliveries;
  readonly sealer: WebhookSecretSealer;
  readonly logger: Logger;
  readonly clock: () => Date;
  readonly allowPrivateNetworks: boolean;
  readonly retentionMs: number;
  readonly leaseMs: number;
  readonly retry?: Partial<RetryRules>;
  readonly timeoutMs?: number;
  /** Deliveries sent at once by this worker (each to a different webhook). */
  readonly concurrency?: number;
  /** Deliveries of one owner's webhooks in flight at once, across notifiers (WEBHOOK_OWNER_IN_FLIGHT). */
  readonly ownerInFlight?: number;
  /** Undelivered deliveries a replay lets one webhook have (WEBHOOK_REPLAY_QUEUE). */
  readonly replayQueue?: number;
  readonly metrics?: WebhookMetrics;
  readonly random?: () => number;
}

export class WebhookWorker {
  private stopped = true;
  private loops: Promise<void>[] = [];
  private sleepers = new Set<() => void>();
  private readonly inFlight = new Set<Promise<void>>();
  private lastPurge = 0;
  private lastBacklog = 0;

  private readonly matcher: WebhookMatcher;

  constructor(private readonly options: WebhookWorkerOptions) {
    this.matcher = new WebhookMatcher(options.readStore, options.clock);
  }

  private get rules(): RetryRules {
    return {
      firstRetryMs: this.options.retry?.firstRetryMs ?? 10_000,
      failureWindowMs: this.options.retry?.failureWindowMs ?? FAILURE_WINDOW_MS,
    };
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loops = [
      this.run("follow", () => this.followOnce()),
      this.run("dispatch", () => this.dispatchOnce()),
      this.run("maintain", () => this.maintainOnce()),
    ];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp();
    await Promise.all(this.loops);
    await Promise.all(this.inFlight);
  }

  /** Runs `step` until stopped; a step that found nothing to do waits a little (or until woken). */
  private async run(name: string, step: () => Promise<boolean>): Promise<void> {
    while (!this.stopped) {
      let busy = false;
      try {
        busy = await step();
      } catch (error) {
        this.options.logger.warn({ event: "webhooks.loop_failed", loop: name, err: error });
      }
      if (!busy && !this.stopped) await this.idle();
      // Stores that answer synchronously (SQLite) would otherwise keep a busy loop on the event loop's turn.
      else await nextTurn();
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, IDLE_MS);
      this.sleepers.add(done);
    });
  }

  /** Ends every idle wait: there is new work. */
  private wakeUp(): void {
    for (const sleeper of [...this.sleepers]) sleeper();
  }

  /** Matches the next stretch of the log; answers whether the log held more events. */
  async followOnce(): Promise<boolean> {
    const { deliveries, readStore } = this.options;
    const head = await readStore.checkpoint();
    const checkpoint = await deliveries.followerCheckpoint();
    if (checkpoint >= head) return false;
    const webhooks = await readStore.webhooks.active();
    // Nothing before the oldest webhook can match it, and a follower that never moved wrote no row, so it has no
    // erasure to meet there: a fresh follower skips that stretch of the log (all of it without webhooks). Once
    // moved, it reads every event, matched or not, so that it meets every erasure.
    const from = checkpoint === 0 ? Math.min(head, ...webhooks.map((webhook) => webhook.position)) : checkpoint;
    if (from >= head) {
      await deliveries.enqueue([], head);
      return true;
    }
    // Each event may make a delivery for every webhook: fewer events a step when there are many webhooks, so a
    // step's matching and its one write stay short whatever the number of webhooks.
    const events = Math.max(1, Math.min(BATCH, Math.floor(DELIVERIES_PER_STEP / Math.max(1, webhooks.length))));
    const recorded = (await this.options.eventStore.readAll(from, events, BATCH_BYTES)).filter(
      (event) => event.position <= head,
    );
    const last = recorded.at(-1);
    const upTo = last && last.position < head ? last.position : head;
    const stored = recorded.map(parseRecorded);
    // The read models (at `head`, past these erasures) show no webhook of the erased: no row below is theirs.
    for (const { event, position } of stored) {
      // Not done within the step's bound: the next step reads the same events and goes on.
      if (
        event.type === "UserErased" &&
        !(await this.forgetOwner({ ownerId: event.data.userId, position, erasedAt: event.data.erasedAt }))
      )
        return true;
    }
    const rows = [
      ...(await this.matcher.match(stored, webhooks, "live")),
      ...(await this.matcher.matchNotifications(stored, from, upTo, webhooks)),
    ];
    await deliveries.enqueue(rows, upTo);
    if (rows.length > 0) this.wakeUp();
    return true;
  }

  /** Forgets an erased owner's rows, a batch at a time with a turn of the event loop between; true once none is left. */
  private async forgetOwner(erasure: OwnerErasure): Promise<boolean> {
    let forgotten = 0;
    for (let batch = 0; batch < FORGET_BATCHES_PER_STEP; batch += 1) {
      const deleted = await this.options.deliveries.forgetOwner(erasure, FORGET_BATCH);
      forgotten += deleted;
      if (deleted === 0) {
        if (forgotten > 0) this.options.logger.info({ event: "webhooks.owner_forgotten", count: forgotten });
        return true;
      }
      await nextTurn();
    }
    this.options.logger.info({ event: "webhooks.owner_forgetting", count: forgotten });
    return false;
  }

  /** Leases and sends what is due; answers whether it found any. */
  async dispatchOnce(): Promise<boolean> {
    const free = (this.options.concurrency ?? 16) - this.inFlight.size;
    if (free <= 0) {
      await Promise.race(this.inFlight);
      return true;
    }
    const now = this.options.clock();
    const leaseUntil = new Date(now.getTime() + this.options.leaseMs).toISOString();
    const claimed = await this.options.deliveries.claimDue(
      now.toISOString(),
      leaseUntil,
      free,
      this.options.ownerInFlight ?? 4,
    );
    for (const delivery of claimed) {
      const sending: Promise<void> = tracing()
        .inSpan(
          "webhook.deliver",
          {
            kind: "producer",
            parent: delivery.traceparent ?? null,
            attributes: {
              "workspace.webhook.event": delivery.type,
              "workspace.delivery.attempt": delivery.attempts + 1,
            },
          },
          () => this.deliver(delivery),
        )
        .catch((error: unknown) =>
          this.options.logger.warn({ event: "webhooks.delivery_failed", deliveryId: delivery.id, err: error }),
        )
        .finally(() => {
          this.inFlight.delete(sending);
          this.wakeUp();
        });
      this.inFlight.add(sending);
    }
    return claimed.length > 0;
  }

  private async deliver(delivery: DeliveryRecord): Promise<void> {
    const { readStore, deliveries, logger } = this.options;
    const webhook = await readStore.webhooks.get(delivery.webhookId);
    const stop = !webhook
      ? "the webhook was deleted"
      : !webhook.active
        ? `the webhook is disabled${webhook.disabledReason ? `: ${webhook.disabledReason}` : ""}`
        : !(await this.stillVisible(webhook, delivery))
          ? "the webhook's owner can no longer see this event"
          : null;
    if (!webhook || stop !== null) {
      await deliveries.record(delivery.id, {
        status: "failed",
        attempts: delivery.attempts,
        lastResponseStatus: delivery.lastResponseStatus,
        lastError: stop,
        deliveredAt: null,
        nextAttemptAt: null,
      });
      this.options.metrics?.webhookDelivery("failed");
      return;
    }
    const result = await this.send(webhook, delivery);
    const { outcome, disableReason } = afterAttempt(
      delivery,
      result,
      this.options.clock(),
      this.rules,
      (this.options.random ?? Math.random)(),
    );
    await deliveries.record(delivery.id, outcome);
    this.options.metrics?.webhookDelivery(outcome.status === "pending" ? "retrying" : outcome.status);
    logger.info({
      event: "webhooks.attempt",
      webhookId: webhook.id,
      deliveryId: delivery.id,
      status: outcome.status,
      responseStatus: outcome.lastResponseStatus,
      attempts: outcome.attempts,
    });
    if (disableReason) await this.disable(webhook, disableReason);
  }

  /**
   * The send-time check: the owner may still see the event's page or folder; for `notification.created`, the
   * notification still exists, is the owner's and their list would show it (erasure and a purged page drop it).
   */
  private async stillVisible(webhook: WebhookRecord, delivery: DeliveryRecord): Promise<boolean> {
    if (delivery.type === "notification.created") {
      const notificationId = notificationIdOfPayload(delivery.payload);
      const [record] = notificationId
        ? await this.options.readStore.notifications.getMany(webhook.ownerId, [notificationId])
        : [];
      return record !== undefined && (await this.matcher.notificationVisible(webhook, record));
    }
    const scope = scopeOfPayload(delivery.payload);
    return scope !== null && (await this.matcher.visibleTo(webhook, scope, delivery.type.startsWith("share.")));
  }

  private async send(webhook: WebhookRecord, delivery: DeliveryRecord): Promise<AttemptResult> {
    let secret: string;
    try {
      secret = this.options.sealer.open(webhook.id, webhook.sealedSecret);
    } catch {
      // Retried like any failure, so the log shows it and the failure window ends it.
      return {
        kind: "error",
        message: "the webhook's secret cannot be opened: the server's sealing key changed; create the webhook again",
      };
    }
    const headers = signWebhook(
      secret,
      delivery.id,
      Math.floor(this.options.clock().getTime() / 1000),
      delivery.payload,
    );
    // The receiver may continue the trace: the delivery's span, in the W3C header (no header when tracing is off).
    const traceparent = tracing().traceparent();
    return sendWebhook(webhook.url, { ...headers, ...(traceparent ? { traceparent } : {}) }, delivery.payload, {
      allowPrivateNetworks: this.options.allowPrivateNetworks,
      timeoutMs: this.options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    });
  }

  private async disable(webhook: WebhookRecord, reason: string): Promise<void> {
    const webhookId = webhookIdSchema.parse(webhook.id);
    const context = {
      actorId: userIdSchema.parse(webhook.ownerId),
      correlationId: randomUUID(),
      causationId: null,
      now: this.options.clock(),
    };
    await webhookCommands.handle(
      this.options.eventStore,
      webhookId,
      { type: "DisableWebhook", webhookId, reason },
      context,
    );
    this.options.logger.warn({ event: "webhooks.disabled", webhookId: webhook.id, reason });
  }

  /** Retention, the queue metric, and one batch of each replay that has room; answers whether a replay moved. */
  async maintainOnce(): Promise<boolean> {
    const { deliveries } = this.options;
    const now = this.options.clock();
    if (now.getTime() - this.lastPurge >= PURGE_EVERY_MS) {
      this.lastPurge = now.getTime();
      const purged = await deliveries.purge(new Date(now.getTime() - this.options.retentionMs).toISOString());
      if (purged > 0) this.options.logger.info({ event: "webhooks.purged", count: purged });
    }
    if (this.options.metrics && now.getTime() - this.lastBacklog >= BACKLOG_EVERY_MS) {
      this.lastBacklog = now.getTime();
      const backlog = await deliveries.backlog();
      this.options.metrics.webhookQueue(
        backlog.pending,
        backlog.oldestCreatedAt ? Math.max(0, (now.getTime() - Date.parse(backlog.oldestCreatedAt)) / 1000) : 0,
      );
    }
    let moved = false;
    for (const job of await deliveries.replays(REPLAYS_PER_STEP)) {
      if (await this.replayBatch(job)) moved = true;
      await nextTurn();
    }
    return moved;
  }

  /** Matches the replay's next batch of the log, no more rows than the webhook has room for; false when it has none. */
  private async replayBatch(job: ReplayJob): Promise<boolean> {
    const { deliveries, readStore } = this.options;
    const webhook = await readStore.webhooks.get(job.webhookId);
    if (!webhook) {
      await deliveries.advanceReplay(job.id, [], job.upTo);
      return true;
    }
    const bound = this.options.replayQueue ?? 100;
    const room = bound - (await deliveries.undelivered(webhook.id, bound));
    if (room <= 0) return false;
    const recorded = (await this.options.eventStore.readAll(job.cursor, BATCH, BATCH_BYTES)).filter(
      (event) => event.position <= job.upTo,
    );
    const last = recorded.at(-1);
    const matched = await this.matcher.match(recorded.map(parseRecorded), [webhook], `replay:${job.id}`, true);
    // One row per event for a single webhook, in log order: the rows beyond the room are matched again later.
    const rows = matched.slice(0, room);
    const lastRow = rows.at(-1);
    const cursor =
      matched.length > room && lastRow ? lastRow.position : last && last.position < job.upTo ? last.position : job.upTo;
    await deliveries.advanceReplay(job.id, rows, cursor);
    if (rows.length > 0) this.wakeUp();
    return true;
  }
}
