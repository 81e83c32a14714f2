// A page as the MongoDB read models store it: the listing fields, the markdown, and what search needs.
import { z } from "zod";
import type { PageRecord } from "../../pages/page-record.ts";
import { recordOf } from "./mongo-batch.ts";

const pageSchema = z.object({
  _id: z.string(),
  ownerId: z.string(),
  parentId: z.string().nullable(),
  title: z.string(),
  icon: z.string().nullable(),
  ancestorIds: z.array(z.string()),
  folderPath: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedPosition: z.number(),
  revision: z.number(),
});
export type PageDoc = z.infer<typeof pageSchema> & {
  titleKey: string;
  deleted: boolean;
  accessKeys: string[];
  markdown: string;
  /** Folded words of the title, space-separated and padded with a space at each end. */
  titleText: string;
  /** The same of the markdown. */
  bodyText: string;
  /** Every distinct folded word of title and markdown. */
  words: string[];
};

export const toPageRecord = (doc: unknown): PageRecord => recordOf(pageSchema, doc);
