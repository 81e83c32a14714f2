// Watching, read: GET /pages/{pageId}/watch and /folders/{folderId}/watch (whether the caller watches it; 404 for
// what they cannot view), and GET /me/notification-settings.
import { z } from "zod";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { folderIdSchema, pageIdSchema } from "../../../shared/kernel/ids.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import { watchStatus } from "../../../shared/watching/watch-status.ts";
import { notificationSettingsResource, watchResource } from "../../../shared/watching/watch.resource.ts";

const read = { access: { scope: "pages:read" as const } };

export function watchingQueryRoutes(app: App, views: ReadModels): void {
  app.get(
    "/pages/:pageId/watch",
    {
      config: read,
      schema: { params: z.object({ pageId: pageIdSchema }), response: { 200: watchResource, "4xx": errorBody } },
    },
    async (request) => watchStatus(views, principalOf(request), "page", request.params.pageId),
  );
  app.get(
    "/folders/:folderId/watch",
    {
      config: read,
      schema: { params: z.object({ folderId: folderIdSchema }), response: { 200: watchResource, "4xx": errorBody } },
    },
    async (request) => watchStatus(views, principalOf(request), "folder", request.params.folderId),
  );
  app.get(
    "/me/notification-settings",
    { config: read, schema: { response: { 200: notificationSettingsResource, "4xx": errorBody } } },
    async (request) => views.notificationSettings.get(principalOf(request).user.id),
  );
}
