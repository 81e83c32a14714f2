// Page links in MongoDB: one document per (source, target), `_id` `<source>><target>`. Every write is an
// upsert or a delete of what the event says, and a link kept keeps its position (`$setOnInsert`), so a batch
// applied again after a crash ends in the same documents.
import { z } from "zod";
import type { LinksView, LinksWriter, PageLink } from "../../links/links.view.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

const linkSchema = z.object({ _id: z.string(), sourceId: z.string(), targetId: z.string(), position: z.number() });
type LinkDoc = z.infer<typeof linkSchema>;

export const linksModel: MongoModel = {
  collections: ["page_links"],
  indexes: [
    { collection: "page_links", name: "page_links_target", keys: { targetId: 1, position: -1 }, serves: "GET /pages/{id}/backlinks: the links to a page, newest first" },
    { collection: "page_links", name: "page_links_source", keys: { sourceId: 1 }, serves: "a page's own links, replaced when its content changes or it is deleted" },
  ],
};

const links = (ref: GenerationRef) => ref.current().collection<LinkDoc>("page_links");
const linkId = (sourceId: string, targetId: string): string => `${sourceId}>${targetId}`;

export class MongoLinksWriter implements LinksWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async setLinks(tx: MongoBatch, sourceId: string, targetIds: readonly string[], position: number): Promise<void> {
    await links(this.ref).deleteMany({ sourceId, targetId: { $nin: [...targetIds] } }, tx.options);
    if (targetIds.length === 0) return;
    await links(this.ref).bulkWrite(
      targetIds.map((targetId) => ({
        updateOne: { filter: { _id: linkId(sourceId, targetId) }, update: { $setOnInsert: { sourceId, targetId, position } }, upsert: true },
      })),
      { ordered: false, ...tx.options },
    );
  }

  async removeSource(tx: MongoBatch, sourceId: string): Promise<void> {
    await links(this.ref).deleteMany({ sourceId }, tx.options);
  }

  async removeTarget(tx: MongoBatch, targetId: string): Promise<void> {
    await links(this.ref).deleteMany({ targetId }, tx.options);
  }
}

export class MongoLinksView implements LinksView {
  constructor(private readonly ref: GenerationRef) {}

  async linksTo(targetId: string, before: number | null, limit: number): Promise<PageLink[]> {
    const filter = before === null ? { targetId } : { targetId, position: { $lt: before } };
    const docs = await links(this.ref).find(filter).sort({ position: -1 }).limit(limit).toArray();
    return docs.map((doc) => {
      const { sourceId, targetId: target, position } = linkSchema.parse(doc);
      return { sourceId, targetId: target, position };
    });
  }
}
