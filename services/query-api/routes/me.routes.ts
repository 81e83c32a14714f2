// GET /me: the caller's profile and how they authenticated.
import { z } from "zod";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { scopeSchema } from "../../../shared/kernel/scopes.ts";

const currentUser = z
  .object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    image: z.string().nullable(),
    authentication: z.enum(["session", "token"]),
    scopes: z.array(scopeSchema).nullable(),
  })
  .meta({ id: "CurrentUser", description: "The caller, and how they authenticated" });

export function meRoutes(app: App): void {
  app.get(
    "/me",
    { config: { access: { anyCaller: true } }, schema: { response: { 200: currentUser, "4xx": errorBody } } },
    async (request) => {
      const { user, authentication, scopes } = principalOf(request);
      return { id: user.id, name: user.name, email: user.email, image: user.image, authentication, scopes };
    },
  );
}
