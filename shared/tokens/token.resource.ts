// The API token record (docs/guide/requests.md, Records); `token`, the secret, appears only in the creation response.
import { z } from "zod";
import { scopeSchema } from "../kernel/scopes.ts";
import type { TokenRecord } from "./tokens.view.ts";

export const tokenResource = z
  .object({
    id: z.uuid(),
    name: z.string(),
    scopes: z.array(scopeSchema),
    expiresAt: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "ApiToken", description: "An API token's record, without its secret" });
export const createdTokenResource = tokenResource
  .extend({ token: z.string().meta({ description: "The secret, shown in this answer only" }) })
  .meta({ id: "CreatedApiToken", description: "A new API token's record with its secret" });

export function toTokenResource(token: TokenRecord): z.infer<typeof tokenResource> {
  return {
    id: token.id,
    name: token.name,
    scopes: token.scopes,
    expiresAt: token.expiresAt,
    lastUsedAt: token.lastUsedAt,
    createdAt: token.createdAt,
  };
}
