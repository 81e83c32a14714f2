// API token scopes (docs/guide/tokens.md): none implies another.
import { z } from "zod";

export const scopeSchema = z.enum(["pages:read", "pages:comment", "pages:write"]);
export type Scope = z.infer<typeof scopeSchema>;
