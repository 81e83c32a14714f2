import { z } from "zod";
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
  indexes: [
    {
      collection: "images",
      name: "images_page",
      keys: { pageId: 1 },
      serves: "the images of a purged page, whose bytes and records go with it",
    },
  ],
};

const images = (ref: GenerationRef) => ref.current().collection<ImageDoc>("images");

export class MongoImagesWriter implements ImagesWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async put(tx: MongoBatch, image: ImageRecord): Promise<void> {
    const { id, ...rest } = image;
    await images(this.ref).replaceOne({ _id: id }, rest, { upsert: true, ...tx.options });
  }

  async bytesOfPage(tx: MongoBatch, pageId: string): Promise<number> {
    const [total] = await images(this.ref)
      .aggregate<{ bytes: number }>(
        [{ $match: { pageId } }, { $group: { _id: null, bytes: { $sum: "$size" } } }],
        tx.options,
      )
      .toArray();
    return total?.bytes ?? 0;
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

  async allOfPage(pageId: string, afterId: string | null, limit: number): Promise<ImageRecord[]> {
    const docs = await images(this.ref)
      .find({ pageId, ...(afterId === null ? {} : { _id: { $gt: afterId } }) })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((doc) => recordOf(imageSchema, doc));
  }
}
