// GET /trash: the deleted items the caller could edit, newest deletion first, with when each will be purged.
import { z } from "zod";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { decodeCursor } from "../../../shared/read-store/pagination.ts";
import { listTrash } from "../../../shared/trash/trash.ts";
import type { QueryApiPorts } from "../query-api-ports.ts";

const trashEntry = z
  .object({
    type: z.enum(["page", "folder"]),
    id: z.string(),
    title: z.string(),
    deletedAt: z.string(),
    deletedBy: z.string(),
    purgeAt: z.string(),
    parentId: z.string().nullable(),
    folderPath: z.string(),
  })
  .meta({ id: "TrashItem", description: "A deleted page or folder, with when it is purged" });

export function trashQueryRoutes(app: App, ports: Pick<QueryApiPorts, "views" | "trashRetentionDays">): void {
  app.get(
    "/trash",
    {
      config: { access: { scope: "pages:read" } },
      schema: { querystring: paginationQuery, response: { 200: listOf(trashEntry), "4xx": errorBody } },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      return listTrash(ports.views, principalOf(request), {
        before: decodeCursor(cursor),
        limit,
        retentionDays: ports.trashRetentionDays,
      });
    },
  );
}
