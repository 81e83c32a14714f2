// If-None-Match as RFC 9110 §13.1.2 reads it: `*`, or a list of entity tags compared weakly (a `W/` prefix on
// either side is ignored, the opaque parts must be equal). A match answers 304 on GET and HEAD.

/** The entity tags a header lists (quoted, with W/ if weak); commas inside quotes do not split. */
function entityTags(header: string): string[] {
  return [...header.matchAll(/(?:W\/)?"[^"]*"/g)].map((match) => match[0]);
}

const opaque = (tag: string): string => tag.trim().replace(/^W\//, "");

/** Whether `header` (If-None-Match as sent) matches the current `etag`, by weak comparison. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  const current = opaque(etag);
  return entityTags(header).some((tag) => opaque(tag) === current);
}
