// GET /pages/{pageId}/comments: a page's threads, newest first, filtered by status, each with its comments
// oldest first. Listing comments is part of commenting, so it needs the comment scope and permission.
import { z } from "zod";
import { listThreads, threadFilterSchema } from "../../../shared/threads/list-threads.ts";
import { threadResource } from "../../../shared/threads/thread.resource.ts";
import type { App } from "../../../shared/http/create-app.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { pageIdSchema } from "../../../shared/kernel/ids.ts";

export function threadQueryRoutes(app: App, views: ReadModels): void {
  app.get(
    "/pages/:pageId/comments",
    {
      config: { access: { scope: "pages:comment" } },
      schema: {
        params: z.object({ pageId: pageIdSchema }),
        querystring: paginationQuery.extend({ status: threadFilterSchema.default("open") }),
        response: { 200: listOf(threadResource), "4xx": errorBody },
      },
    },
    async (request) => listThreads(views, principalOf(request), request.params.pageId, request.query),
  );
}
