// Where a browser goes after signing in: a path on this server, never another site. An OAuth consent page (or
// any page) sends a person to /auth/login?returnTo=<its path> and gets them back signed in.
import { z } from "zod";

/** Where a sign-in ends when no returnTo is given: the API reference, where "Try it out" now works. */
export const DEFAULT_RETURN_TO = "/docs";

const PLACEHOLDER_ORIGIN = "http://return-to.invalid";

/** A path that resolves on this server's own origin: `//host`, `/\host`, schemes and control characters are refused. */
function staysOnSite(value: string): boolean {
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return false;
  if (
    [...value].some(
      (character) => character === "\\" || character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f,
    )
  )
    return false;
  try {
    return new URL(value, PLACEHOLDER_ORIGIN).origin === PLACEHOLDER_ORIGIN;
  } catch {
    return false;
  }
}

export const returnToSchema = z
  .string()
  .max(2048)
  .refine(staysOnSite, "must be a path on this server (starting with a single /)")
  .describe("A path on this server to return to once signed in (e.g. an OAuth consent page); another site is refused");
