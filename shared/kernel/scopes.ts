// API token scopes (spec §5): none implies another.
import { z } from "zod";

export const scopeSchema = z.enum(["pages:read", "pages:comment", "pages:write"]);
export type Scope = z.infer<typeof scopeSchema>;
