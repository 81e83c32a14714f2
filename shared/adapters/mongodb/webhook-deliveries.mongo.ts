// The webhook delivery log in MongoDB: plain collections beside the read models (not in a read-model generation,
// since a replay of the read models must not lose it). The guarantees are SQLite's:
// - order: `seq` comes from a counter document incremented atomically, a block per write, so it increases
//   across notifiers (a clock-based value does not);
// - one row in flight per webhook: `webhook_queues` holds one document per webhook, and a claim takes the
//   webhook's document with one findOneAndUpdate on "not leased" before it leases the row, so two notifiers
//   never hold two rows of one webhook;
// - a bounded claim: it looks at a window of webhooks (least recently served first, owners at their in-flight
//   cap left out), never at every due row;
// - fairness: at most `perOwner` of one owner's webhooks in flight (counted from the leases of every notifier
//   when the claim starts; two notifiers claiming at the same instant may pass it by one each).
// Rows are written with upserts that keep an existing row, and the follower's checkpoint last, so a crash
// between them only repeats matching.
// - forgetting: `webhook_erasures` records an owner's erasure before their rows are deleted; a write leaves out
//   rows of an erased owner for events up to the erasure, and looks again after writing, deleting what it wrote
//   that an erasure recorded meanwhile covers. Either the forgetting's deletions come after the write, or the
//   write's second look comes after the record: no such row stays.
import { MongoServerError, type Collection, type Db } from "mongodb";
import { z } from "zod";
import { CLAIM_WINDOW, FairClaim } from "../../webhooks/fair-claim.ts";
import {
  BACKLOG_COUNT_MAX,
  type AttemptOutcome,
  type DeliveryRecord,
  type NewDelivery,
  type OwnerErasure,
  type ReplayJob,
  type WebhookDeliveries,
} from "../../webhooks/webhook-deliveries.port.ts";

/** `dueAt` of a webhook with nothing pending: after every timestamp, so `$min` lowers it and `$lte: now` skips it. */
const NOTHING_DUE = "9999-12-31T23:59:59.999Z";
/** `leasedUntil` of a webhook with nothing in flight: before every timestamp. */
const NOT_LEASED = "";

const deliverySchema = z.object({
  _id: z.string(),
  seq: z.number(),
  webhookId: z.string(),
  ownerId: z.string().optional(),
  eventId: z.string(),
  type: z.string(),
  position: z.number(),
  payload: z.string(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number(),
  lastResponseStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  leaseUntil: z.string().nullable(),
  traceparent: z.string().nullable().optional(),
});
type DeliveryDoc = z.infer<typeof deliverySchema>;
type QueueDoc = { _id: string; ownerId: string; dueAt: string; leasedUntil: string; servedAt: string };
type ReplayDoc = { _id: string; webhookId: string; slot: string; cursor: number; upTo: number; createdAt: string };
type StateDoc = { _id: string; position?: number; value?: number };
type ErasureDoc = { _id: string; position: number; erasedAt: string };

const toRecord = (doc: unknown): DeliveryRecord => {
  const { _id, leaseUntil: _lease, ownerId, ...rest } = deliverySchema.parse(doc);
  return { id: _id, ownerId: ownerId ?? rest.webhookId, ...rest };
};

const isDuplicateKey = (error: unknown): boolean => error instanceof MongoServerError && error.code === 11000;

/** One index of the delivery log's collections, with the query it serves. */
export interface WebhookDeliveryIndex {
  readonly collection: "webhook_deliveries" | "webhook_queues" | "webhook_replays" | "webhook_erasures";
  readonly name: string;
  readonly keys: Record<string, 1 | -1>;
  readonly options?: { readonly unique?: boolean; readonly partialFilterExpression?: Record<string, unknown> };
  readonly serves: string;
}

export const webhookDeliveryIndexes: readonly WebhookDeliveryIndex[] = [
  {
    collection: "webhook_deliveries",
    name: "webhook_deliveries_list",
    keys: { webhookId: 1, seq: -1 },
    serves: "a webhook's deliveries, newest first",
  },
  {
    collection: "webhook_deliveries",
    name: "webhook_deliveries_pending",
    keys: { webhookId: 1, status: 1, nextAttemptAt: 1, seq: 1 },
    serves: "a webhook's next due delivery",
  },
  {
    collection: "webhook_deliveries",
    name: "webhook_deliveries_created",
    keys: { createdAt: 1 },
    serves: "the retention purge",
  },
  {
    collection: "webhook_deliveries",
    name: "webhook_deliveries_owner",
    keys: { ownerId: 1, position: 1 },
    serves: "an owner's deliveries, for erasure",
  },
  // The backlog metric (every few seconds per notifier) counts pending rows and finds the oldest: over pending
  // rows only, never a scan of every retained delivery.
  {
    collection: "webhook_deliveries",
    name: "webhook_deliveries_backlog",
    keys: { status: 1, createdAt: 1 },
    options: { partialFilterExpression: { status: "pending" } },
    serves: "the backlog metric: pending rows, oldest first",
  },
  { collection: "webhook_queues", name: "webhook_queues_owner", keys: { ownerId: 1 }, serves: "an owner's queues" },
  {
    collection: "webhook_queues",
    name: "webhook_queues_served",
    keys: { servedAt: 1, _id: 1 },
    serves: "fair scheduling: the queue served longest ago",
  },
  { collection: "webhook_queues", name: "webhook_queues_leased", keys: { leasedUntil: 1 }, serves: "expired leases" },
  {
    collection: "webhook_replays",
    name: "webhook_replays_webhook",
    keys: { webhookId: 1 },
    serves: "a webhook's replays",
  },
  {
    collection: "webhook_replays",
    name: "webhook_replays_slot",
    keys: { slot: 1 },
    options: { unique: true, partialFilterExpression: { slot: { $exists: true } } },
    serves: "one running replay per slot",
  },
  {
    collection: "webhook_replays",
    name: "webhook_replays_order",
    keys: { createdAt: 1, _id: 1 },
    serves: "replays in order",
  },
  {
    collection: "webhook_erasures",
    name: "webhook_erasures_at",
    keys: { erasedAt: 1 },
    serves: "the erasure records' purge",
  },
];

export class MongoWebhookDeliveries implements WebhookDeliveries {
  private readonly deliveries: Collection<DeliveryDoc>;
  private readonly queues: Collection<QueueDoc>;
  private readonly replayJobs: Collection<ReplayDoc>;
  private readonly state: Collection<StateDoc>;
  private readonly erasures: Collection<ErasureDoc>;

  private constructor(
    private readonly db: Db,
    private readonly ownsClient: boolean,
  ) {
    this.deliveries = db.collection<DeliveryDoc>("webhook_deliveries");
    this.queues = db.collection<QueueDoc>("webhook_queues");
    this.replayJobs = db.collection<ReplayDoc>("webhook_replays");
    this.state = db.collection<StateDoc>("webhook_state");
    this.erasures = db.collection<ErasureDoc>("webhook_erasures");
  }

  static async open(db: Db, options: { ownsClient?: boolean } = {}): Promise<MongoWebhookDeliveries> {
    const store = new MongoWebhookDeliveries(db, options.ownsClient ?? false);
    for (const index of webhookDeliveryIndexes) {
      await db.collection(index.collection).createIndex(index.keys, { name: index.name, ...index.options });
    }
    // A log written before queues existed: give each webhook with pending rows its queue.
    if ((await store.queues.estimatedDocumentCount()) === 0) {
      const pending = store.deliveries.aggregate<{ _id: string; ownerId: string | null; dueAt: string | null }>([
        { $match: { status: "pending" } },
        { $group: { _id: "$webhookId", ownerId: { $max: "$ownerId" }, dueAt: { $min: "$nextAttemptAt" } } },
      ]);
      for await (const queue of pending)
        await store.queueDue(queue._id, queue.ownerId ?? queue._id, queue.dueAt ?? NOTHING_DUE);
    }
    return store;
  }

  async followerCheckpoint(): Promise<number> {
    return (await this.state.findOne({ _id: "follower" }))?.position ?? 0;
  }

  /** The webhook's queue is due no later than `at` (created when missing). */
  private async queueDue(webhookId: string, ownerId: string, at: string): Promise<void> {
    await this.queues.updateOne(
      { _id: webhookId },
      { $min: { dueAt: at }, $setOnInsert: { ownerId, leasedUntil: NOT_LEASED, servedAt: "" } },
      { upsert: true },
    );
  }

  /** Sets the queue's due time from its pending rows, then lowers it for a row added meanwhile (`$min` only lowers). */
  private async refreshQueue(webhookId: string, release: boolean): Promise<void> {
    const earliest = async () =>
      (await this.deliveries.find({ webhookId, status: "pending" }).sort({ nextAttemptAt: 1, seq: 1 }).limit(1).next())
        ?.nextAttemptAt ?? NOTHING_DUE;
    await this.queues.updateOne(
      { _id: webhookId },
      { $set: { dueAt: await earliest(), ...(release ? { leasedUntil: NOT_LEASED } : {}) } },
    );
    await this.queues.updateOne({ _id: webhookId }, { $min: { dueAt: await earliest() } });
  }

  /** The rows an erasure recorded covers: an erased owner's, for events up to the erasure. */
  private async erased(rows: readonly NewDelivery[]): Promise<NewDelivery[]> {
    if (rows.length === 0) return [];
    const owners = [...new Set(rows.map((row) => row.ownerId))];
    const erasures = new Map(
      (await this.erasures.find({ _id: { $in: owners } }).toArray()).map((doc) => [doc._id, doc.position]),
    );
    return rows.filter((row) => row.position <= (erasures.get(row.ownerId) ?? -1));
  }

  private async insert(all: readonly NewDelivery[]): Promise<void> {
    const refused = new Set((await this.erased(all)).map((row) => row.id));
    const rows = all.filter((row) => !refused.has(row.id));
    await this.insertRows(rows);
    const covered = await this.erased(rows);
    if (covered.length === 0) return;
    await this.deliveries.deleteMany({ _id: { $in: covered.map((row) => row.id) } });
    for (const webhookId of new Set(covered.map((row) => row.webhookId))) await this.dropIfEmpty(webhookId);
  }

  /**
   * Deletes the webhook's queue when no row of it is left. A row added meanwhile (an account registered afresh
   * under the erased id) queues itself after it is written: either that comes after the deletion, or the look
   * for a pending row after it finds the row and queues it again.
   */
  private async dropIfEmpty(webhookId: string): Promise<number> {
    if (await this.deliveries.findOne({ webhookId }, { projection: { _id: 1 } })) return 0;
    const dropped = await this.queues.findOneAndDelete({ _id: webhookId });
    if (!dropped) return 0;
    const pending = await this.deliveries
      .find({ webhookId, status: "pending" })
      .sort({ nextAttemptAt: 1, seq: 1 })
      .limit(1)
      .next();
    if (pending) await this.queueDue(webhookId, dropped.ownerId, pending.nextAttemptAt ?? NOTHING_DUE);
    return 1;
  }

  private async insertRows(rows: readonly NewDelivery[]): Promise<void> {
    if (rows.length === 0) return;
    const counter = await this.state.findOneAndUpdate(
      { _id: "seq" },
      { $inc: { value: rows.length } },
      { upsert: true, returnDocument: "after" },
    );
    let seq = (counter?.value ?? rows.length) - rows.length;
    for (const row of rows) {
      seq += 1;
      const { id, ...rest } = row;
      const written = await this.deliveries.updateOne(
        { _id: id },
        {
          $setOnInsert: {
            ...rest,
            seq,
            status: "pending",
            attempts: 0,
            lastResponseStatus: null,
            lastError: null,
            deliveredAt: null,
            leaseUntil: null,
          },
        },
        { upsert: true },
      );
      if (written.upsertedCount > 0) await this.queueDue(row.webhookId, row.ownerId, row.nextAttemptAt);
    }
  }

  async enqueue(rows: readonly NewDelivery[], checkpoint?: number): Promise<void> {
    await this.insert(rows);
    if (checkpoint !== undefined)
      await this.state.updateOne({ _id: "follower" }, { $max: { position: checkpoint } }, { upsert: true });
  }

  async claimDue(now: string, leaseUntil: string, limit: number, perOwner: number): Promise<DeliveryRecord[]> {
    const leased = await this.queues
      .aggregate<{ _id: string; n: number }>([
        { $match: { leasedUntil: { $gt: now } } },
        { $group: { _id: "$ownerId", n: { $sum: 1 } } },
      ])
      .toArray();
    const claim = new FairClaim(
      leased.map((entry) => [entry._id, entry.n] as const),
      limit,
      perOwner,
    );
    const window = await this.queues
      .find({ dueAt: { $lte: now }, leasedUntil: { $lte: now }, ownerId: { $nin: claim.cappedOwners() } })
      .sort({ servedAt: 1, _id: 1 })
      .limit(CLAIM_WINDOW)
      .toArray();
    for (const candidate of claim.turns(window, (queue) => queue.ownerId)) {
      const taken = await this.queues.findOneAndUpdate(
        { _id: candidate._id, leasedUntil: { $lte: now } },
        { $set: { leasedUntil: leaseUntil, servedAt: now } },
      );
      if (!taken) continue;
      const head = await this.deliveries.findOneAndUpdate(
        { webhookId: candidate._id, status: "pending", nextAttemptAt: { $lte: now } },
        { $set: { leaseUntil } },
        { sort: { nextAttemptAt: 1, seq: 1 }, returnDocument: "after" },
      );
      if (!head) {
        await this.refreshQueue(candidate._id, true);
        continue;
      }
      claim.leased(candidate.ownerId, toRecord(head));
    }
    return claim.claimed;
  }

  async record(id: string, outcome: AttemptOutcome): Promise<void> {
    const row = await this.deliveries.findOneAndUpdate({ _id: id }, { $set: { ...outcome, leaseUntil: null } });
    if (row) await this.refreshQueue(row.webhookId, true);
  }

  async get(webhookId: string, id: string): Promise<DeliveryRecord | null> {
    const doc = await this.deliveries.findOne({ _id: id, webhookId });
    return doc ? toRecord(doc) : null;
  }

  async list(webhookId: string, beforeSeq: number | null, limit: number): Promise<DeliveryRecord[]> {
    const filter = beforeSeq === null ? { webhookId } : { webhookId, seq: { $lt: beforeSeq } };
    return (await this.deliveries.find(filter).sort({ seq: -1 }).limit(limit).toArray()).map(toRecord);
  }

  async retry(webhookId: string, id: string, now: string): Promise<boolean> {
    const row = await this.deliveries.findOneAndUpdate(
      { _id: id, webhookId },
      { $set: { status: "pending", nextAttemptAt: now } },
    );
    if (!row) return false;
    await this.queueDue(webhookId, row.ownerId ?? webhookId, now);
    return true;
  }

  async addReplay(job: ReplayJob, atMost: number): Promise<boolean> {
    const { id, ...rest } = job;
    // One document per slot of the webhook: a unique index makes taking a slot atomic across API processes.
    for (let slot = 0; slot < atMost; slot += 1) {
      try {
        await this.replayJobs.insertOne({ _id: id, slot: `${job.webhookId}:${slot}`, ...rest });
        return true;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
    return false;
  }

  async replays(limit: number): Promise<ReplayJob[]> {
    const docs = await this.replayJobs.find({}).sort({ createdAt: 1, _id: 1 }).limit(limit).toArray();
    return docs.map((doc) => ({
      id: doc._id,
      webhookId: doc.webhookId,
      cursor: doc.cursor,
      upTo: doc.upTo,
      createdAt: doc.createdAt,
    }));
  }

  async undelivered(webhookId: string, atMost: number): Promise<number> {
    return this.deliveries.countDocuments({ webhookId, status: "pending" }, { limit: atMost });
  }

  async advanceReplay(jobId: string, rows: readonly NewDelivery[], cursor: number): Promise<void> {
    await this.insert(rows);
    await this.replayJobs.updateOne({ _id: jobId }, { $max: { cursor } });
    await this.replayJobs.deleteOne({ _id: jobId, $expr: { $gte: ["$cursor", "$upTo"] } });
  }

  async forgetOwner(erasure: OwnerErasure, limit: number): Promise<number> {
    const { ownerId, position, erasedAt } = erasure;
    await this.erasures.updateOne({ _id: ownerId }, { $max: { position, erasedAt } }, { upsert: true });
    let left = limit;
    const rows = await this.deliveries
      .find({ ownerId, position: { $lte: position } }, { projection: { _id: 1 } })
      .limit(left)
      .toArray();
    if (rows.length > 0)
      left -= (await this.deliveries.deleteMany({ _id: { $in: rows.map((row) => row._id) }, ownerId })).deletedCount;
    if (rows.length === limit) return limit - left;
    // A queue goes after its replays, so a call cut short by its limit finds them through it, and once its
    // webhook has no row left (the rows of an account registered afresh keep theirs).
    const queueIds = (
      await this.queues
        .find({ ownerId }, { projection: { _id: 1 } })
        .limit(left)
        .toArray()
    ).map((queue) => queue._id);
    if (queueIds.length === 0) return limit - left;
    const replays = await this.replayJobs
      .find({ webhookId: { $in: queueIds }, upTo: { $lte: position } }, { projection: { _id: 1 } })
      .limit(left)
      .toArray();
    const moreReplays = replays.length === left;
    if (replays.length > 0)
      left -= (await this.replayJobs.deleteMany({ _id: { $in: replays.map((replay) => replay._id) } })).deletedCount;
    if (moreReplays) return limit - left;
    for (const webhookId of queueIds) {
      if (left <= 0) break;
      left -= await this.dropIfEmpty(webhookId);
    }
    return limit - left;
  }

  async purge(before: string): Promise<number> {
    await this.erasures.deleteMany({ erasedAt: { $lt: before } });
    const purged = (await this.deliveries.deleteMany({ createdAt: { $lt: before } })).deletedCount;
    if (purged > 0) {
      for await (const queue of this.queues.find({ dueAt: { $lt: NOTHING_DUE } }, { projection: { _id: 1 } }))
        await this.refreshQueue(queue._id, false);
    }
    return purged;
  }

  async backlog(): Promise<{ pending: number; oldestCreatedAt: string | null }> {
    const pending = await this.deliveries.countDocuments({ status: "pending" }, { limit: BACKLOG_COUNT_MAX });
    const oldest = await this.deliveries.find({ status: "pending" }).sort({ createdAt: 1 }).limit(1).next();
    return { pending, oldestCreatedAt: oldest?.createdAt ?? null };
  }

  async close(): Promise<void> {
    if (this.ownsClient) await this.db.client.close();
  }
}
