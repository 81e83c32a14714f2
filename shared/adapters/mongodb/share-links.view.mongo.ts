import { z } from "zod";
import { shareLinkEntityTypeSchema } from "../../share-links/share-link.decider.ts";
import type {
  ShareLinkRecord,
  ShareLinkSettingsChange,
  ShareLinksView,
  ShareLinksWriter,
} from "../../share-links/share-links.view.ts";
import { recordOf, type GenerationRef, type MongoBatch, type MongoModel } from "./mongo-batch.ts";

const shareLinkSchema = z.object({
  _id: z.string(),
  entityType: shareLinkEntityTypeSchema,
  entityId: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  position: z.number().int(),
  secretHash: z.string(),
  expiresAt: z.string().nullable(),
  passwordHash: z.string().nullable(),
  allowIndexing: z.boolean(),
  revokedAt: z.string().nullable(),
  views: z.number().int(),
  lastViewedAt: z.string().nullable(),
});
type ShareLinkDoc = z.infer<typeof shareLinkSchema>;

export const shareLinksModel: MongoModel = {
  collections: ["share_links"],
  indexes: [
    {
      collection: "share_links",
      name: "share_links_secret",
      keys: { secretHash: 1 },
      unique: true,
      serves: "GET /s/{secret}: the link a public request's secret hashes to",
    },
    {
      collection: "share_links",
      name: "share_links_creator",
      keys: { createdBy: 1, position: -1 },
      serves: "GET /share-links: the caller's links, newest first",
    },
    {
      collection: "share_links",
      name: "share_links_entity",
      keys: { entityType: 1, entityId: 1, position: -1 },
      serves: "GET /share-links?entityType&entityId: a page's or folder's links",
    },
  ],
};

const shareLinks = (ref: GenerationRef) => ref.current().collection<ShareLinkDoc>("share_links");
const toRecord = (doc: unknown): ShareLinkRecord => recordOf(shareLinkSchema, doc);
const before = (position: number | null) => (position === null ? {} : { position: { $lt: position } });

export class MongoShareLinksWriter implements ShareLinksWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async put(tx: MongoBatch, link: ShareLinkRecord): Promise<void> {
    const { id, ...rest } = link;
    await shareLinks(this.ref).replaceOne({ _id: id }, rest, { upsert: true, ...tx.options });
  }

  async change(tx: MongoBatch, id: string, settings: ShareLinkSettingsChange): Promise<void> {
    await shareLinks(this.ref).updateOne({ _id: id }, { $set: { ...settings } }, tx.options);
  }

  async revoke(tx: MongoBatch, id: string, revokedAt: string): Promise<void> {
    await shareLinks(this.ref).updateOne({ _id: id }, { $set: { revokedAt } }, tx.options);
  }

  async addViews(tx: MongoBatch, id: string, views: number, lastViewedAt: string): Promise<void> {
    // $max on an ISO-8601 string moves lastViewedAt forward only (null sorts below every string).
    await shareLinks(this.ref).updateOne({ _id: id }, { $inc: { views }, $max: { lastViewedAt } }, tx.options);
  }
}

export class MongoShareLinksView implements ShareLinksView {
  constructor(private readonly ref: GenerationRef) {}

  async get(id: string): Promise<ShareLinkRecord | null> {
    const doc = await shareLinks(this.ref).findOne({ _id: id });
    return doc ? toRecord(doc) : null;
  }

  async findBySecretHash(secretHash: string): Promise<ShareLinkRecord | null> {
    const doc = await shareLinks(this.ref).findOne({ secretHash });
    return doc ? toRecord(doc) : null;
  }

  async listForCreator(userId: string, beforePosition: number | null, limit: number): Promise<ShareLinkRecord[]> {
    const docs = await shareLinks(this.ref)
      .find({ createdBy: userId, ...before(beforePosition) })
      .sort({ position: -1 })
      .limit(limit)
      .toArray();
    return docs.map(toRecord);
  }

  async listForEntity(
    entityType: string,
    entityId: string,
    beforePosition: number | null,
    limit: number,
  ): Promise<ShareLinkRecord[]> {
    const docs = await shareLinks(this.ref)
      .find({ entityType: shareLinkEntityTypeSchema.parse(entityType), entityId, ...before(beforePosition) })
      .sort({ position: -1 })
      .limit(limit)
      .toArray();
    return docs.map(toRecord);
  }
}
