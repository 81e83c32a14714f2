// The webhook delivery log in MongoDB: plain collections beside the read models (not in a read-model generation,
// since a replay of the read models must not lose it). Claims are findOneAndUpdate on a due, unleased row, so
// two notifiers never hold one row at once; rows and the follower's checkpoint are written row by row with
// upserts that keep an existing row, and the checkpoint last, so a crash between them only repeats matching.
import type { Collection, Db } from "mongodb";
import { z } from "zod";
import type { AttemptOutcome, DeliveryRecord, NewDelivery, ReplayJob, WebhookDeliveries } from "../../webhooks/webhook-deliveries.port.ts";

const deliverySchema = z.object({
  _id: z.string(),
  seq: z.number(),
  webhookId: z.string(),
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
});
type DeliveryDoc = z.infer<typeof deliverySchema>;
type ReplayDoc = { _id: string; webhookId: string; cursor: number; upTo: number; createdAt: string };
type StateDoc = { _id: string; position: number };

const toRecord = (doc: unknown): DeliveryRecord => {
  const { _id, leaseUntil: _lease, ...rest } = deliverySchema.parse(doc);
  return { id: _id, ...rest };
};

export class MongoWebhookDeliveries implements WebhookDeliveries {
  private readonly deliveries: Collection<DeliveryDoc>;
  private readonly replays: Collection<ReplayDoc>;
  private readonly state: Collection<StateDoc>;

  private constructor(
    private readonly db: Db,
    private readonly ownsClient: boolean,
  ) {
    this.deliveries = db.collection<DeliveryDoc>("webhook_deliveries");
    this.replays = db.collection<ReplayDoc>("webhook_replays");
    this.state = db.collection<StateDoc>("webhook_state");
  }

  static async open(db: Db, options: { ownsClient?: boolean } = {}): Promise<MongoWebhookDeliveries> {
    const store = new MongoWebhookDeliveries(db, options.ownsClient ?? false);
    await store.deliveries.createIndex({ webhookId: 1, seq: -1 }, { name: "webhook_deliveries_list" });
    await store.deliveries.createIndex({ status: 1, nextAttemptAt: 1 }, { name: "webhook_deliveries_due" });
    await store.deliveries.createIndex({ createdAt: 1 }, { name: "webhook_deliveries_created" });
    return store;
  }

  async followerCheckpoint(): Promise<number> {
    return (await this.state.findOne({ _id: "follower" }))?.position ?? 0;
  }

  private async insert(rows: readonly NewDelivery[]): Promise<void> {
    for (const row of rows) {
      const { id, ...rest } = row;
      // seq orders the newest-first list; a time-based value keeps it increasing across notifiers.
      const seq = Date.now() * 1000 + Math.floor(Math.random() * 1000);
      await this.deliveries.updateOne(
        { _id: id },
        { $setOnInsert: { ...rest, seq, status: "pending", attempts: 0, lastResponseStatus: null, lastError: null, deliveredAt: null, leaseUntil: null } },
        { upsert: true },
      );
    }
  }

  async enqueue(rows: readonly NewDelivery[], checkpoint?: number): Promise<void> {
    await this.insert(rows);
    if (checkpoint !== undefined) await this.state.updateOne({ _id: "follower" }, { $max: { position: checkpoint } }, { upsert: true });
  }

  async claimDue(now: string, leaseUntil: string, limit: number): Promise<DeliveryRecord[]> {
    const claimed: DeliveryRecord[] = [];
    const busy = new Set((await this.deliveries.distinct("webhookId", { status: "pending", leaseUntil: { $gt: now } })).map(String));
    while (claimed.length < limit) {
      const doc = await this.deliveries.findOneAndUpdate(
        { status: "pending", nextAttemptAt: { $lte: now }, webhookId: { $nin: [...busy] }, $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }] },
        { $set: { leaseUntil } },
        { sort: { seq: 1 }, returnDocument: "after" },
      );
      if (!doc) break;
      busy.add(doc.webhookId);
      claimed.push(toRecord(doc));
    }
    return claimed;
  }

  async record(id: string, outcome: AttemptOutcome): Promise<void> {
    await this.deliveries.updateOne({ _id: id }, { $set: { ...outcome, leaseUntil: null } });
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
    const result = await this.deliveries.updateOne({ _id: id, webhookId }, { $set: { status: "pending", nextAttemptAt: now } });
    return result.matchedCount > 0;
  }

  async addReplay(job: ReplayJob): Promise<void> {
    const { id, ...rest } = job;
    await this.replays.updateOne({ _id: id }, { $setOnInsert: rest }, { upsert: true });
  }

  async nextReplay(): Promise<ReplayJob | null> {
    const doc = await this.replays.find({}).sort({ createdAt: 1, _id: 1 }).limit(1).next();
    return doc ? { id: doc._id, webhookId: doc.webhookId, cursor: doc.cursor, upTo: doc.upTo, createdAt: doc.createdAt } : null;
  }

  async advanceReplay(jobId: string, rows: readonly NewDelivery[], cursor: number): Promise<void> {
    await this.insert(rows);
    await this.replays.updateOne({ _id: jobId }, { $max: { cursor } });
    await this.replays.deleteOne({ _id: jobId, $expr: { $gte: ["$cursor", "$upTo"] } });
  }

  async purge(before: string): Promise<number> {
    return (await this.deliveries.deleteMany({ createdAt: { $lt: before } })).deletedCount;
  }

  async backlog(): Promise<{ pending: number; oldestCreatedAt: string | null }> {
    const pending = await this.deliveries.countDocuments({ status: "pending" });
    const oldest = await this.deliveries.find({ status: "pending" }).sort({ createdAt: 1 }).limit(1).next();
    return { pending, oldestCreatedAt: oldest?.createdAt ?? null };
  }

  async close(): Promise<void> {
    if (this.ownsClient) await this.db.client.close();
  }
}
