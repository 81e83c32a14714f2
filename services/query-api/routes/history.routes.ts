// GET /pages/{pageId}/history and GET /folders/{folderId}/history: an entity's changes, oldest or newest first,
// with who made them; sharing changes only for those who may share the entity.
import { z } from "zod";
import { visibleFolder } from "../../../shared/access/authorize.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { changeSchema, userRefSchema, type DescribedEntry } from "../../../shared/history/describe-history.ts";
import { describeFor, pageHistoryFor } from "../../../shared/history/read-history.ts";
import { folderIdSchema, pageIdSchema } from "../../../shared/kernel/ids.ts";
import { decodeCursor, encodeCursor } from "../../../shared/read-store/pagination.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

export const historyItem = z.object({
  position: z.string(),
  type: z.string(),
  occurredAt: z.string(),
  actor: userRefSchema,
  changes: changeSchema,
});
type HistoryItem = z.infer<typeof historyItem>;

const historyQuery = paginationQuery.extend({ order: z.enum(["asc", "desc"]).default("desc") });
type HistoryQuery = z.infer<typeof historyQuery>;

export const toHistoryItem = ({ entry, actor, changes }: DescribedEntry): HistoryItem => ({
  position: String(entry.position),
  type: entry.event.type,
  occurredAt: entry.occurredAt,
  actor,
  changes,
});

/** One page of described entries in the asked order, keyed by position (exclusive cursor). */
function pageOfHistory(described: readonly DescribedEntry[], query: HistoryQuery): { data: HistoryItem[]; nextCursor: string | null } {
  const from = decodeCursor(query.cursor);
  const ordered = query.order === "asc" ? described : [...described].reverse();
  const rest = from === null ? ordered : ordered.filter(({ entry }) => (query.order === "asc" ? entry.position > from : entry.position < from));
  const kept = rest.slice(0, query.limit);
  const last = kept[kept.length - 1];
  return { data: kept.map(toHistoryItem), nextCursor: rest.length > query.limit && last ? encodeCursor(last.entry.position) : null };
}

const read = { access: { scope: "pages:read" as const } };
const response = { 200: listOf(historyItem), "4xx": errorBody };

export function historyQueryRoutes(app: App, views: ReadModels): void {
  app.get("/pages/:pageId/history", { config: read, schema: { params: z.object({ pageId: pageIdSchema }), querystring: historyQuery, response } }, async (request) => {
    const history = await pageHistoryFor(views, principalOf(request), request.params.pageId);
    return pageOfHistory(await describeFor(views, history.entries, history.permission), request.query);
  });

  app.get("/folders/:folderId/history", { config: read, schema: { params: z.object({ folderId: folderIdSchema }), querystring: historyQuery, response } }, async (request) => {
    const { folder, permission } = await visibleFolder(views, principalOf(request), request.params.folderId);
    const entries = await views.history.entriesOf(folder.id);
    return pageOfHistory(await describeFor(views, entries, permission), request.query);
  });
}
