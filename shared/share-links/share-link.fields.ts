// The fields of a share-link request, checked alike by every entry point (HTTP routes, MCP tools).
import { z } from "zod";
import { shareLinkEntityTypeSchema } from "./share-link.decider.ts";

const expiresAtField = z.iso.datetime({ offset: true }).nullable();
const passwordField = z.string().min(1).max(200).nullable();

/** A new link's settings: none required. */
export const createShareLinkFields = z.object({
  expiresAt: expiresAtField.default(null),
  password: passwordField.default(null),
  allowIndexing: z.boolean().default(false),
});
export type CreateShareLinkFields = z.output<typeof createShareLinkFields>;

/** A change names the settings it changes; a null password removes it. */
export const changeShareLinkFields = z
  .object({ expiresAt: expiresAtField, password: passwordField, allowIndexing: z.boolean() })
  .partial()
  .refine((body) => Object.keys(body).length > 0, "name at least one of expiresAt, password, allowIndexing");
export type ChangeShareLinkFields = z.output<typeof changeShareLinkFields>;

/** Whose links a list is about: the caller's own (neither), or one page's or folder's (both). */
export const shareLinkFilterFields = {
  entityType: shareLinkEntityTypeSchema.optional(),
  entityId: z.uuid().optional(),
};
export const filterNamesBoth = (filter: { entityType?: unknown; entityId?: unknown }): boolean =>
  (filter.entityType === undefined) === (filter.entityId === undefined);
export const FILTER_MESSAGE = "entityType and entityId go together";
