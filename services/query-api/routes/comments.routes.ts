// GET /pages/{pageId}/comments: a page's threads, newest first, filtered by status, each with its comments
// oldest first. Listing comments is part of commenting, so it needs the comment scope and permission.
import { z } from "zod";
import { requirePermission, visiblePage } from "../../../shared/access/authorize.ts";
import { presentThreads, threadResource } from "../../../shared/comments/thread.resource.ts";
import type { App } from "../../../shared/http/create-app.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { pageIdSchema } from "../../../shared/kernel/ids.ts";
import { decodeCursor, pageOf } from "../../../shared/read-store/pagination.ts";

const threadFilter = z.enum(["open", "resolved", "all"]);

export function commentQueryRoutes(app: App, views: ReadModels): void {
  app.get(
    "/pages/:pageId/comments",
    {
      config: { access: { scope: "pages:comment" } },
      schema: {
        params: z.object({ pageId: pageIdSchema }),
        querystring: paginationQuery.extend({ status: threadFilter.default("open") }),
        response: { 200: listOf(threadResource), "4xx": errorBody },
      },
    },
    async (request) => {
      const { pageId } = request.params;
      const { permission } = await visiblePage(views, principalOf(request), pageId);
      requirePermission(permission, "comment", "page");
      const { status, cursor, limit } = request.query;
      const rows = await views.threads.list({ pageId, status, before: decodeCursor(cursor), limit });
      const { rows: kept, nextCursor } = pageOf(rows, limit, (thread) => ({
        position: thread.createdPosition,
        id: thread.id,
      }));
      const content = await views.pages.getContent(pageId);
      return { data: await presentThreads(views.users, kept, content?.markdown ?? ""), nextCursor };
    },
  );
}
