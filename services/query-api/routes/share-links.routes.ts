// GET /share-links (the caller's own links, or with entityType and entityId the links of a page or folder the
// caller may share; newest first, paged) and GET /share-links/{id}. Records only: the secret is never shown again.
import { z } from "zod";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { shareLinkIdSchema } from "../../../shared/kernel/ids.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import { listShareLinks, readShareLink } from "../../../shared/share-links/list-share-links.ts";
import {
  FILTER_MESSAGE,
  filterNamesBoth,
  shareLinkFilterFields,
} from "../../../shared/share-links/share-link.fields.ts";
import { shareLinkResource } from "../../../shared/share-links/share-link.resource.ts";

const listQuery = paginationQuery.extend(shareLinkFilterFields).refine(filterNamesBoth, FILTER_MESSAGE);

export function shareLinkQueryRoutes(app: App, views: ReadModels): void {
  const config = { access: { scope: "pages:read" as const } };

  app.get(
    "/share-links",
    { config, schema: { querystring: listQuery, response: { 200: listOf(shareLinkResource), "4xx": errorBody } } },
    async (request) => listShareLinks(views, principalOf(request), request.query),
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
    async (request) => readShareLink(views, principalOf(request), request.params.linkId),
  );
}
