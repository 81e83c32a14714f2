// The templates read model in MongoDB: one document per template (its page id, owner and the position it was
// marked at), read newest marked first and joined to the page's listing document, whose accessKeys decide
// visibility inside the same aggregation.
import { z } from "zod";
import type { ListQuery } from "../../read-store/list-query.ts";
import type { TemplateRow, TemplatesView, TemplatesWriter } from "../../templates/templates.view.ts";
import { visibleKeys } from "./access-keys.ts";
import { after, NEWEST_FIRST } from "./list-order.mongo.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

const templateSchema = z.object({ _id: z.string(), ownerId: z.string(), updatedPosition: z.number() });
type TemplateDoc = z.infer<typeof templateSchema>;

export const templatesModel: MongoModel = {
  collections: ["templates"],
  indexes: [
    {
      collection: "templates",
      name: "templates_newest",
      keys: { updatedPosition: -1, _id: -1 },
      serves: "GET /templates: templates newest marked first",
    },
  ],
};

const templates = (ref: GenerationRef) => ref.current().collection<TemplateDoc>("templates");
const toRow = (doc: unknown): TemplateRow => {
  const { _id, ownerId, updatedPosition } = templateSchema.parse(doc);
  return { pageId: _id, ownerId, position: updatedPosition };
};

export class MongoTemplatesWriter implements TemplatesWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async put(tx: MongoBatch, row: TemplateRow): Promise<void> {
    await templates(this.ref).replaceOne(
      { _id: row.pageId },
      { ownerId: row.ownerId, updatedPosition: row.position },
      { upsert: true, ...tx.options },
    );
  }

  async remove(tx: MongoBatch, pageId: string): Promise<void> {
    await templates(this.ref).deleteOne({ _id: pageId }, tx.options);
  }
}

export class MongoTemplatesView implements TemplatesView {
  constructor(private readonly ref: GenerationRef) {}

  async list(query: ListQuery): Promise<TemplateRow[]> {
    const pagesCollection = this.ref.current().name("pages");
    const docs = await templates(this.ref)
      .aggregate([
        { $match: after<TemplateDoc>({}, query.before) },
        { $sort: NEWEST_FIRST },
        {
          $lookup: {
            from: pagesCollection,
            localField: "_id",
            foreignField: "_id",
            as: "page",
            pipeline: [{ $project: { accessKeys: 1, deleted: 1 } }],
          },
        },
        { $match: { "page.deleted": false, "page.accessKeys": { $in: visibleKeys(query.visibleTo) } } },
        { $limit: query.limit + 1 },
        { $project: { ownerId: 1, updatedPosition: 1 } },
      ])
      .toArray();
    return docs.map(toRow);
  }

  async isTemplate(pageId: string): Promise<boolean> {
    return (await templates(this.ref).countDocuments({ _id: pageId }, { limit: 1 })) > 0;
  }
}
