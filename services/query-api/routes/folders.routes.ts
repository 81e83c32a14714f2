// GET /folders and GET /folders/{folderId}: folders the caller can view, with their effective permission.
import { z } from "zod";
import { visibleFolder } from "../../../shared/access/authorize.ts";
import { presentVisible, visibilityFilter } from "../../../shared/access/effective-permission.ts";
import { folderResource, toFolderResource } from "../../../shared/folders/folder.resource.ts";
import type { App } from "../../../shared/http/create-app.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { folderIdSchema } from "../../../shared/kernel/ids.ts";
import { decodeListCursor, pageOf } from "../../../shared/read-store/pagination.ts";

export function folderQueryRoutes(app: App, views: ReadModels): void {
  app.get(
    "/folders",
    {
      config: { access: { scope: "pages:read" } },
      schema: { querystring: paginationQuery, response: { 200: listOf(folderResource), "4xx": errorBody } },
    },
    async (request) => {
      const principal = principalOf(request);
      const context = await views.access.contextFor(principal.user.id);
      const { limit, cursor } = request.query;
      const rows = await views.folders.list({
        visibleTo: visibilityFilter(context),
        before: decodeListCursor(cursor),
        limit,
      });
      const { rows: kept, nextCursor } = pageOf(rows, limit, (folder) => ({
        position: folder.updatedPosition,
        id: folder.id,
      }));
      return { data: presentVisible(context, "folder", kept, toFolderResource), nextCursor };
    },
  );

  app.get(
    "/folders/:folderId",
    {
      config: { access: { scope: "pages:read" } },
      schema: { params: z.object({ folderId: folderIdSchema }), response: { 200: folderResource, "4xx": errorBody } },
    },
    async (request) => {
      const { shown, permission } = await visibleFolder(views, principalOf(request), request.params.folderId);
      return toFolderResource(shown, permission);
    },
  );
}
