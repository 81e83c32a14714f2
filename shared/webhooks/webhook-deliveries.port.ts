// The delivery log: one row per (webhook, event, origin), written by the notifier and read by the API. Rows,
// not events: a busy workspace makes several deliveries per change and each may take many attempts, and
// nothing else in the system reacts to an attempt, so recording them as events would multiply the log for no
// reader. The store also keeps the follower's checkpoint in the history log and the replays asked for, so a
// restarted notifier resumes where it stopped. Claims carry a lease: a row is sent by one notifier at a time,
// and a notifier that dies mid-send leaves a lease that runs out, after which the row is sent again (same id).
// Claims are fair: one row in flight per webhook, at most a few per owner, and webhooks served least recently
// first, so one user's many slow endpoints cannot hold every sending slot. An erased owner is forgotten: their
// rows go, and none of theirs from before the erasure is added afterwards.
type DeliveryStatus = "pending" | "delivered" | "failed";

export interface DeliveryRecord {
  readonly id: string;
  readonly webhookId: string;
  /** The webhook's owner: claims share sending slots fairly between owners. */
  readonly ownerId: string;
  readonly eventId: string;
  /** The webhook event name (`page.created`). */
  readonly type: string;
  readonly position: number;
  /** The JSON body sent, fixed when the row is made so every attempt signs the same bytes. */
  readonly payload: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly lastResponseStatus: number | null;
  readonly lastError: string | null;
  readonly createdAt: string;
  readonly deliveredAt: string | null;
  readonly nextAttemptAt: string | null;
  /** Insertion order, increasing across notifiers: the newest-first list's order and cursor. */
  readonly seq: number;
  /** The trace context of the event's write, when it had one: the delivery's span continues that trace. */
  readonly traceparent?: string | null;
}

/** The most pending rows the queue metric counts: past it, `webhook_deliveries_pending` reads this number. */
export const BACKLOG_COUNT_MAX = 10_000;

export type NewDelivery = Omit<
  DeliveryRecord,
  "status" | "attempts" | "lastResponseStatus" | "lastError" | "deliveredAt" | "seq"
> & { readonly nextAttemptAt: string };

export interface AttemptOutcome {
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly lastResponseStatus: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: string | null;
  readonly nextAttemptAt: string | null;
}

export interface ReplayJob {
  readonly id: string;
  readonly webhookId: string;
  /** Events after this position are delivered again... */
  readonly cursor: number;
  /** ...up to this one, the read models' position when the replay was asked for. */
  readonly upTo: number;
  readonly createdAt: string;
}

/** An owner's erasure, as UserErased records it. */
export interface OwnerErasure {
  readonly ownerId: string;
  /** The position of UserErased in the global log. */
  readonly position: number;
  readonly erasedAt: string;
}

export interface WebhookDeliveries {
  /** Position in the history log up to which events were matched against webhooks. */
  followerCheckpoint(): Promise<number>;
  /**
   * Adds rows (a row whose id exists is kept as it is, a row of an erased owner for an event up to their erasure
   * is left out) and, when given, moves the follower's checkpoint.
   */
  enqueue(rows: readonly NewDelivery[], checkpoint?: number): Promise<void>;
  /**
   * Leases due pending rows until `leaseUntil`: at most `limit`, at most one per webhook, none of a webhook that
   * has a leased row already (a slow endpoint holds only its own webhook's queue), at most `perOwner` leased at
   * once per owner (counting leases other notifiers hold), the webhooks served least recently first. Each row is
   * the webhook's earliest due. The work is bounded by the webhooks looked at, never by the rows queued.
   */
  claimDue(now: string, leaseUntil: string, limit: number, perOwner: number): Promise<DeliveryRecord[]>;
  /** Records an attempt's outcome and releases the lease. */
  record(id: string, outcome: AttemptOutcome): Promise<void>;
  get(webhookId: string, id: string): Promise<DeliveryRecord | null>;
  /** Newest first, rows with seq below `beforeSeq` when given; `limit` + 1 rows tell whether more follow. */
  list(webhookId: string, beforeSeq: number | null, limit: number): Promise<DeliveryRecord[]>;
  /**
   * Makes a row pending and due at `now` (its attempts kept); false when there is no such row. A lease is kept:
   * a row being sent is not sent twice at once (its attempt's outcome then decides).
   */
  retry(webhookId: string, id: string, now: string): Promise<boolean>;
  /** Adds a replay unless its webhook has `atMost` unfinished replays already; answers whether it was added. */
  addReplay(job: ReplayJob, atMost: number): Promise<boolean>;
  /** The oldest unfinished replays, at most `limit`. */
  replays(limit: number): Promise<ReplayJob[]>;
  /** The webhook's pending rows, counted up to `atMost`. */
  undelivered(webhookId: string, atMost: number): Promise<number>;
  /** Adds a replay's rows (as `enqueue` does) and moves its cursor; a cursor at upTo ends it. */
  advanceReplay(jobId: string, rows: readonly NewDelivery[], cursor: number): Promise<void>;
  /**
   * Forgets what an erased owner had up to their erasure: records that no row of theirs for an event up to it
   * may be added from now on (a notifier that matched events against read models from before the erasure may
   * still try), then deletes up to `limit` rows: their deliveries of events up to it, then their replays asked
   * before it, then their webhooks' queues left empty. Answers how many rows it deleted, 0 once none is left: a
   * caller repeats it until then, each call costing at most `limit` rows. Safe to repeat and to run from several
   * notifiers at once. What an account registered afresh under the same id has after the erasure stays (though
   * a replay it asks for skips events up to the erasure while the record of it is kept: until `purge` is given a
   * time after `erasedAt`).
   */
  forgetOwner(erasure: OwnerErasure, limit: number): Promise<number>;
  /** Deletes rows created before `before`, and the records of erasures before it; answers how many rows. */
  purge(before: string): Promise<number>;
  /**
   * Pending rows, counted up to BACKLOG_COUNT_MAX so the count costs a bounded time however long the queue, and
   * when the oldest of them was created (for the queue metrics).
   */
  backlog(): Promise<{ pending: number; oldestCreatedAt: string | null }>;
  close(): Promise<void>;
}
