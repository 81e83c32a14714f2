// GET /pages/{pageId}/history, GET /folders/{folderId}/history and GET /groups/{groupId}/history: an entity's
// changes, oldest or newest first, with who made them; sharing changes only for those who may share the entity.
import { z } from "zod";
import { visibleFolder } from "../../../shared/access/authorize.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import type { DescribedEntry } from "../../../shared/history/describe-history.ts";
import { actorRefSchema, changeSchema } from "../../../shared/history/change-summary.ts";
import {
  historyPageOf,
  pageHistoryFor,
  type HistoryPage,
  type HistoryPageQuery,
} from "../../../shared/history/read-history.ts";
import { visibleGroup } from "../../../shared/groups/visible-group.ts";
import { folderIdSchema, groupIdSchema, pageIdSchema } from "../../../shared/kernel/ids.ts";
import { decodeCursor, encodeCursor } from "../../../shared/read-store/pagination.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

export const historyItem = z
  .object({
    position: z.string(),
    type: z.string(),
    occurredAt: z.string(),
    actor: actorRefSchema,
    changes: changeSchema,
  })
  .meta({ id: "HistoryEntry", description: "One change of a page or folder, with who made it" });
type HistoryItem = z.infer<typeof historyItem>;

const historyQuery = paginationQuery.extend({ order: z.enum(["asc", "desc"]).default("desc") });
type HistoryQuery = z.infer<typeof historyQuery>;

export const toHistoryItem = ({ entry, actor, changes }: DescribedEntry): HistoryItem => ({
  position: String(entry.position),
  type: entry.type,
  occurredAt: entry.occurredAt,
  actor,
  changes,
});

const pageQueryOf = (query: HistoryQuery): HistoryPageQuery => ({
  order: query.order,
  from: decodeCursor(query.cursor),
  limit: query.limit,
});

function listOfPage(page: HistoryPage): { data: HistoryItem[]; nextCursor: string | null } {
  return { data: page.data.map(toHistoryItem), nextCursor: page.next === null ? null : encodeCursor(page.next) };
}

const read = { access: { scope: "pages:read" as const } };
const response = { 200: listOf(historyItem), "4xx": errorBody };

export function historyQueryRoutes(app: App, views: ReadModels): void {
  app.get(
    "/pages/:pageId/history",
    { config: read, schema: { params: z.object({ pageId: pageIdSchema }), querystring: historyQuery, response } },
    async (request) => {
      return listOfPage(
        await pageHistoryFor(views, principalOf(request), request.params.pageId, pageQueryOf(request.query)),
      );
    },
  );

  app.get(
    "/folders/:folderId/history",
    { config: read, schema: { params: z.object({ folderId: folderIdSchema }), querystring: historyQuery, response } },
    async (request) => {
      const principal = principalOf(request);
      const { folder, permission } = await visibleFolder(views, principal, request.params.folderId);
      const context = await views.access.contextFor(principal.user.id);
      return listOfPage(await historyPageOf(views, folder.id, { permission, context }, pageQueryOf(request.query)));
    },
  );

  // A group's changes, for those who see the group (its workspace's owner and admins, its members); a group has
  // no sharing changes of its own, so a viewer's reading shows them all.
  app.get(
    "/groups/:groupId/history",
    { config: read, schema: { params: z.object({ groupId: groupIdSchema }), querystring: historyQuery, response } },
    async (request) => {
      const { group, context } = await visibleGroup(views, principalOf(request).user.id, request.params.groupId);
      const caller = { permission: "view" as const, context };
      return listOfPage(await historyPageOf(views, group.id, caller, pageQueryOf(request.query)));
    },
  );
}
