// GET /pages/{pageId}/backlinks: the pages the caller can view whose markdown links to this page.
import { z } from "zod";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { pageIdSchema } from "../../../shared/kernel/ids.ts";
import { backlinksOf } from "../../../shared/links/backlinks.ts";
import { resolvedPageResource, toPageResource } from "../../../shared/pages/page.resource.ts";
import { decodeCursor } from "../../../shared/read-store/pagination.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

export function backlinkQueryRoutes(app: App, views: ReadModels): void {
  app.get(
    "/pages/:pageId/backlinks",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        params: z.object({ pageId: pageIdSchema }),
        querystring: paginationQuery,
        response: { 200: listOf(resolvedPageResource), "4xx": errorBody },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const { data, nextCursor } = await backlinksOf(views, principalOf(request), request.params.pageId, {
        before: decodeCursor(cursor),
        limit,
      });
      return {
        data: data.map(({ page, permission }) => ({
          ...toPageResource(page, permission),
          folderPath: page.folderPath,
        })),
        nextCursor,
      };
    },
  );
}
