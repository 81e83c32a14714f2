// GET /apps: the apps the session's user authorized through OAuth and has not revoked.
import { z } from "zod";
import { appResource, toAppResource } from "../../../shared/apps/app.resource.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

export function appQueryRoutes(app: App, views: ReadModels): void {
  app.get(
    "/apps",
    {
      config: { access: { sessionOnly: true } },
      schema: { response: { 200: z.object({ data: z.array(appResource) }), "4xx": errorBody } },
    },
    async (request) => {
      const apps = await views.apps.listForUser(principalOf(request).user.id);
      return { data: apps.map(toAppResource) };
    },
  );
}
