// Page links in MongoDB: one document per (source, target), `_id` `<source>><target>`, with the source's owner.
// Every write is an upsert or a delete of what the event says, and a link kept keeps its position
// (`$setOnInsert`), so a batch applied again after a crash ends in the same documents. Backlinks are read through
// each source of the caller's visibility, so links from pages they cannot see are never read.
import { z } from "zod";
import type { LinksView, LinksWriter, PageLink } from "../../links/links.view.ts";
import type { VisibleTo } from "../../read-store/list-query.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";
import type { PageDoc } from "./page-doc.mongo.ts";

const linkSchema = z.object({
  _id: z.string(),
  sourceId: z.string(),
  targetId: z.string(),
  sourceOwner: z.string(),
  position: z.number(),
});
type LinkDoc = z.infer<typeof linkSchema>;

export const linksModel: MongoModel = {
  collections: ["page_links"],
  indexes: [
    {
      collection: "page_links",
      name: "page_links_target",
      keys: { targetId: 1, sourceOwner: 1, position: -1 },
      serves: "GET /pages/{id}/backlinks: the links to a page from the workspaces the caller sees, newest first",
    },
    {
      collection: "page_links",
      name: "page_links_source",
      keys: { sourceId: 1 },
      serves: "a page's own links, replaced when its content changes or it is deleted",
    },
  ],
};

const links = (ref: GenerationRef) => ref.current().collection<LinkDoc>("page_links");
const pages = (ref: GenerationRef) => ref.current().collection<PageDoc>("pages");
const linkId = (sourceId: string, targetId: string): string => `${sourceId}>${targetId}`;

export class MongoLinksWriter implements LinksWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async setLinks(
    tx: MongoBatch,
    source: { id: string; ownerId: string | null },
    targetIds: readonly string[],
    position: number,
  ): Promise<void> {
    const sourceId = source.id;
    await links(this.ref).deleteMany({ sourceId, targetId: { $nin: [...targetIds] } }, tx.options);
    if (targetIds.length === 0) return;
    // The page's document stays (marked deleted) until a purge, and a page's later events all follow its creation.
    const sourceOwner =
      source.ownerId ??
      (await pages(this.ref).findOne({ _id: sourceId }, { projection: { ownerId: 1 }, ...tx.options }))?.ownerId;
    if (sourceOwner === undefined) throw new Error(`links of page ${sourceId}: the page has no record`);
    await links(this.ref).bulkWrite(
      targetIds.map((targetId) => ({
        updateOne: {
          filter: { _id: linkId(sourceId, targetId) },
          update: { $setOnInsert: { sourceId, targetId, sourceOwner, position } },
          upsert: true,
        },
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

  async linksTo(targetId: string, visibleTo: VisibleTo, before: number | null, limit: number): Promise<PageLink[]> {
    const older = before === null ? {} : { position: { $lt: before } };
    const belowFolders =
      visibleTo.folderIds.length === 0
        ? []
        : (
            await pages(this.ref)
              .find({ ancestorIds: { $in: [...visibleTo.folderIds] }, deleted: false }, { projection: { _id: 1 } })
              .toArray()
          ).map((page) => page._id);
    const byId = [...visibleTo.pageIds, ...belowFolders].map((sourceId) => linkId(sourceId, targetId));
    const [fromOwners, fromIds] = await Promise.all([
      links(this.ref)
        .find({ targetId, sourceOwner: { $in: [...visibleTo.ownerIds] }, ...older })
        .sort({ position: -1 })
        .limit(limit)
        .toArray(),
      byId.length === 0
        ? []
        : links(this.ref)
            .find({ _id: { $in: byId }, ...older })
            .sort({ position: -1 })
            .limit(limit)
            .toArray(),
    ]);
    const found = new Map<string, PageLink>();
    for (const doc of [...fromOwners, ...fromIds]) {
      const { sourceId, targetId: target, position } = linkSchema.parse(doc);
      found.set(sourceId, { sourceId, targetId: target, position });
    }
    return [...found.values()].sort((a, b) => b.position - a.position).slice(0, limit);
  }
}
