// GET /tokens: the session owner's live tokens, without secrets.
import { z } from "zod";
import type { Dependencies } from "../../../shared/app/dependencies.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { guard, principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { tokenResource, toTokenResource } from "../../../shared/tokens/token.resource.ts";

export function tokenQueryRoutes(app: App, deps: Dependencies): void {
  app.get(
    "/tokens",
    {
      onRequest: guard(deps, { sessionOnly: true }),
      schema: { response: { 200: z.object({ data: z.array(tokenResource) }), "4xx": errorBody } },
    },
    async (request) => {
      const tokens = await deps.readStore.tokens.listForUser(principalOf(request).user.id);
      return { data: tokens.map(toTokenResource) };
    },
  );
}
