// GET /tokens: the session owner's live tokens, without secrets.
import { z } from "zod";
import type { App } from "../../../shared/http/create-app.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { tokenResource, toTokenResource } from "../../../shared/tokens/token.resource.ts";

export function tokenQueryRoutes(app: App, views: ReadModels): void {
  app.get(
    "/tokens",
    {
      config: { access: { sessionOnly: true } },
      schema: { response: { 200: z.object({ data: z.array(tokenResource) }), "4xx": errorBody } },
    },
    async (request) => {
      const tokens = await views.tokens.listForUser(principalOf(request).user.id);
      return { data: tokens.map(toTokenResource) };
    },
  );
}
