// GET /share-links (the caller's own links, or with entityType and entityId the links of a page or folder the
// caller may share; newest first, paged) and GET /share-links/{id}. Records only: the secret is never shown again.
import { z } from "zod";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { shareLinkIdSchema } from "../../../shared/kernel/ids.ts";
import { atLeast } from "../../../shared/kernel/permissions.ts";
import { decodeCursor, pageOf } from "../../../shared/read-store/pagination.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import { managedShareLink } from "../../../shared/share-links/manage-share-link.ts";
import { shareLinkEntityTypeSchema } from "../../../shared/share-links/share-link.decider.ts";
import { shareLinkResource, toShareLinkResource } from "../../../shared/share-links/share-link.resource.ts";
import { visibleEntity } from "../../../shared/sharing/shared-entity.ts";

const listQuery = paginationQuery
  .extend({ entityType: shareLinkEntityTypeSchema.optional(), entityId: z.uuid().optional() })
  .refine(
    (query) => (query.entityType === undefined) === (query.entityId === undefined),
    "entityType and entityId go together",
  );

export function shareLinkQueryRoutes(app: App, views: ReadModels): void {
  const config = { access: { scope: "pages:read" as const } };

  app.get(
    "/share-links",
    { config, schema: { querystring: listQuery, response: { 200: listOf(shareLinkResource), "4xx": errorBody } } },
    async (request) => {
      const principal = principalOf(request);
      const { limit, cursor, entityType, entityId } = request.query;
      const before = decodeCursor(cursor);
      let rows;
      if (entityType !== undefined && entityId !== undefined) {
        const { permission } = await visibleEntity(views, principal, entityType, entityId);
        if (!atLeast(permission, "admin")) throw new AppError("forbidden", `you may not share this ${entityType}`);
        rows = await views.shareLinks.listForEntity(entityType, entityId, before, limit + 1);
      } else {
        rows = await views.shareLinks.listForCreator(principal.user.id, before, limit + 1);
      }
      const { rows: kept, nextCursor } = pageOf(rows, limit, (link) => ({ position: link.position, id: "" }));
      return { data: kept.map((link) => toShareLinkResource(link)), nextCursor };
    },
  );

  app.get(
    "/share-links/:linkId",
    {
      config,
      schema: {
        params: z.object({ linkId: shareLinkIdSchema }),
        response: { 200: shareLinkResource, "4xx": errorBody },
      },
    },
    async (request) =>
      toShareLinkResource(await managedShareLink(views, principalOf(request), request.params.linkId, "read")),
  );
}
