// The page record clients see (docs/guide/requests.md, Records), built from the read model and the caller's permission.
import { unreachableMentionsField } from "../mentions/mentions.resource.ts";
import { z } from "zod";
import type { Permission } from "../kernel/permissions.ts";
import type { Seen } from "../access/seen-by.ts";
import type { PageRecord } from "./page-record.ts";

export const permissionValue = z.enum(["view", "comment", "edit", "admin", "owner"]);

export const pageResource = z
  .object({
    id: z.uuid(),
    parentId: z.uuid().nullable(),
    title: z.string(),
    icon: z.string().nullable(),
    cover: z.object({ type: z.string(), value: z.string() }).nullable(),
    properties: z.record(z.string(), z.unknown()),
    ownerId: z.uuid(),
    permission: permissionValue,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Page", description: "A page's record (its markdown is read from /content)" });
export type PageResource = z.infer<typeof pageResource>;

export const resolvedPageResource = pageResource
  .extend({
    folderPath: z
      .string()
      .meta({ description: 'The folder names from the root down, joined by `/` (`""` at the root)' }),
  })
  .meta({ id: "PageWithPath", description: "A page's record with the path of the folder it is in" });

/** Only from a record shaped for the caller (seenBy): parentId never names a folder they cannot view. */
export function toPageResource(page: Seen<PageRecord>, permission: Permission): PageResource {
  return {
    id: page.id,
    parentId: page.parentId,
    title: page.title,
    icon: page.icon,
    cover: null,
    properties: {},
    ownerId: page.ownerId,
    permission,
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
  };
}

export const createdPageResource = pageResource
  .extend({ unreachableMentions: unreachableMentionsField })
  .meta({ id: "CreatedPage", description: "A new page's record, with the mentions of its markdown that reach nobody" });
