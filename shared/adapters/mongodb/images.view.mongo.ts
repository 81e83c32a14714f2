import { z } from "zod";
import { pageIdsHeldBy } from "./pages.view.mongo.ts";
import { imageMimeTypeSchema } from "../../images/image.decider.ts";
import type { ImageRecord, ImagesView, ImagesWriter } from "../../images/images.view.ts";
import { recordOf, type GenerationRef, type MongoBatch, type MongoModel } from "./mongo-batch.ts";

const imageSchema = z.object({
  _id: z.string(),
  pageId: z.string(),
  uploaderId: z.string(),
  filename: z.string(),
  originalName: z.string(),
  mimeType: imageMimeTypeSchema,
  size: z.number(),
  width: z.number(),
  height: z.number(),
  alt: z.string(),
  sha256: z.string(),
  createdAt: z.string(),
});
type ImageDoc = z.infer<typeof imageSchema>;

export const imagesModel: MongoModel = {
  collections: ["images"],
  indexes: [{ collection: "images", name: "images_page", keys: { pageId: 1 }, serves: "the images of a purged page, whose bytes and records go with it" }],
};

const images = (ref: GenerationRef) => ref.current().collection<ImageDoc>("images");

export class MongoImagesWriter implements ImagesWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async put(tx: MongoBatch, image: ImageRecord): Promise<void> {
    const { id, ...rest } = image;
    await images(this.ref).replaceOne({ _id: id }, rest, { upsert: true, ...tx.options });
  }

  async removePage(tx: MongoBatch, pageId: string): Promise<void> {
    await images(this.ref).deleteMany({ pageId }, tx.options);
  }
}

export class MongoImagesView implements ImagesView {
  constructor(private readonly ref: GenerationRef) {}

  async get(id: string): Promise<ImageRecord | null> {
    const doc = await images(this.ref).findOne({ _id: id });
    return doc ? recordOf(imageSchema, doc) : null;
  }

  async bytesOwnedBy(ownerId: string): Promise<number> {
    // The owner's pages until purged, then one sum over their images through images_page.
    const pageIds = await pageIdsHeldBy(this.ref, ownerId);
    if (pageIds.length === 0) return 0;
    const [total] = await images(this.ref)
      .aggregate<{ bytes: number }>([{ $match: { pageId: { $in: pageIds } } }, { $group: { _id: null, bytes: { $sum: "$size" } } }])
      .toArray();
    return total?.bytes ?? 0;
  }

  async allOfPage(pageId: string, afterId: string | null, limit: number): Promise<ImageRecord[]> {
    const docs = await images(this.ref)
      .find({ pageId, ...(afterId === null ? {} : { _id: { $gt: afterId } }) })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((doc) => recordOf(imageSchema, doc));
  }
}
