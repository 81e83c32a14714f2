// The people directory: GET /users?query= (people who share a workspace with the caller, by name or address prefix).
import { z } from "zod";
import { findPeople } from "../../../shared/directory/find-people.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

const person = z
  .object({
    id: z.uuid(),
    name: z.string(),
    email: z.string().nullable().meta({
      description:
        "Shown only where the API already shows you this address (your workspace's members, people you shared with); null otherwise",
    }),
    avatarUrl: z.string().nullable(),
  })
  .meta({ id: "Person", description: "Someone who shares a workspace with you" });

const directoryQuery = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .meta({ description: "The start of a name, of a word of it, or of an address" }),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export function userQueryRoutes(app: App, views: ReadModels): void {
  app.get(
    "/users",
    {
      config: { access: { scope: "pages:read" } },
      schema: { querystring: directoryQuery, response: { 200: z.object({ data: z.array(person) }), "4xx": errorBody } },
    },
    async (request) => {
      const { data } = await findPeople(views, principalOf(request), request.query);
      return {
        data: data.map((found) => ({ id: found.id, name: found.name, email: found.email, avatarUrl: found.image })),
      };
    },
  );
}
