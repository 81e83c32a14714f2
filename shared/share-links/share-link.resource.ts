// The share-link record (docs/guide/share-links.md). `url` carries the secret, which is stored only as
// its hash: it is in the creation answer alone (null in every later read), for the one who created the link.
import { z } from "zod";
import { shareLinkEntityTypeSchema } from "./share-link.decider.ts";
import type { ShareLinkRecord } from "./share-links.view.ts";

export const shareLinkResource = z
  .object({
    id: z.uuid(),
    url: z
      .string()
      .nullable()
      .describe("the public address, with the secret: only in the creation answer (null afterwards)"),
    entityType: shareLinkEntityTypeSchema,
    entityId: z.uuid(),
    expiresAt: z.string().nullable(),
    passwordProtected: z.boolean(),
    allowIndexing: z.boolean(),
    createdBy: z.uuid(),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
    views: z.number().int(),
    lastViewedAt: z.string().nullable(),
  })
  .meta({
    id: "ShareLink",
    description:
      "A public share link of a page or folder: its settings, views and last view (its url only in the creation answer)",
  });
export type ShareLinkResource = z.infer<typeof shareLinkResource>;

export function toShareLinkResource(link: ShareLinkRecord, url: string | null = null): ShareLinkResource {
  return {
    id: link.id,
    url,
    entityType: link.entityType,
    entityId: link.entityId,
    expiresAt: link.expiresAt,
    passwordProtected: link.passwordHash !== null,
    allowIndexing: link.allowIndexing,
    createdBy: link.createdBy,
    createdAt: link.createdAt,
    revokedAt: link.revokedAt,
    views: link.views,
    lastViewedAt: link.lastViewedAt,
  };
}
