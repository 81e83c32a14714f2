// The authorized app's record (GET /apps): which client, under which name, with which scopes.
import { z } from "zod";
import { scopeSchema } from "../kernel/scopes.ts";
import type { AppRecord } from "./apps.view.ts";

export const appResource = z
  .object({
    id: z.string(),
    name: z.string().meta({ description: "The client's name, as it declared it" }),
    clientId: z
      .string()
      .meta({ description: "The OAuth client id: a registered id, or the URL of its metadata document" }),
    clientUri: z.string().nullable(),
    redirectHost: z.string(),
    scopes: z.array(scopeSchema),
    createdAt: z.string(),
  })
  .meta({ id: "AuthorizedApp", description: "An app the user authorized through OAuth" });

export function toAppResource(app: AppRecord): z.infer<typeof appResource> {
  return {
    id: app.id,
    name: app.name,
    clientId: app.clientId,
    clientUri: app.clientUri,
    redirectHost: app.redirectHost,
    scopes: app.scopes,
    createdAt: app.createdAt,
  };
}
