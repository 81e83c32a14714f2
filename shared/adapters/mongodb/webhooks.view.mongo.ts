import { z } from "zod";
import { webhookEventsSchema } from "../../webhooks/webhook-event-names.ts";
import type { WebhookRecord, WebhooksView, WebhooksWriter } from "../../webhooks/webhooks.view.ts";
import { recordOf, type GenerationRef, type MongoBatch, type MongoModel } from "./mongo-batch.ts";

const webhookSchema = z.object({
  _id: z.string(),
  ownerId: z.string(),
  url: z.string(),
  events: webhookEventsSchema,
  description: z.string().nullable(),
  folderId: z.string().nullable(),
  active: z.boolean(),
  disabledReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  position: z.number(),
  sealedSecret: z.string(),
});
type WebhookDoc = z.infer<typeof webhookSchema>;

export const webhooksModel: MongoModel = {
  collections: ["webhooks"],
  indexes: [
    {
      collection: "webhooks",
      name: "webhooks_owner",
      keys: { ownerId: 1, position: -1 },
      serves: "GET /webhooks: an owner's webhooks, newest first",
    },
    { collection: "webhooks", name: "webhooks_active", keys: { active: 1 }, serves: "the notifier's active webhooks" },
  ],
};

const webhooks = (ref: GenerationRef) => ref.current().collection<WebhookDoc>("webhooks");
const toRecord = (doc: unknown): WebhookRecord => recordOf(webhookSchema, doc);

export class MongoWebhooksWriter implements WebhooksWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async put(tx: MongoBatch, webhook: WebhookRecord): Promise<void> {
    const { id, ...rest } = webhook;
    await webhooks(this.ref).replaceOne({ _id: id }, rest, { upsert: true, ...tx.options });
  }

  async update(
    tx: MongoBatch,
    id: string,
    changes: Parameters<WebhooksWriter<MongoBatch>["update"]>[2],
  ): Promise<void> {
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    await webhooks(this.ref).updateOne({ _id: id }, { $set: set }, tx.options);
  }

  async remove(tx: MongoBatch, id: string): Promise<void> {
    await webhooks(this.ref).deleteOne({ _id: id }, tx.options);
  }

  async removeForOwner(tx: MongoBatch, ownerId: string): Promise<void> {
    await webhooks(this.ref).deleteMany({ ownerId }, tx.options);
  }
}

export class MongoWebhooksView implements WebhooksView {
  constructor(private readonly ref: GenerationRef) {}

  async get(id: string): Promise<WebhookRecord | null> {
    const doc = await webhooks(this.ref).findOne({ _id: id });
    return doc ? toRecord(doc) : null;
  }

  async listForOwner(ownerId: string, beforePosition: number | null, limit: number): Promise<WebhookRecord[]> {
    const filter = beforePosition === null ? { ownerId } : { ownerId, position: { $lt: beforePosition } };
    const docs = await webhooks(this.ref).find(filter).sort({ position: -1 }).limit(limit).toArray();
    return docs.map(toRecord);
  }

  async active(): Promise<WebhookRecord[]> {
    return (await webhooks(this.ref).find({ active: true }).toArray()).map(toRecord);
  }
}
