// Which pages a page's markdown links to: every `/api/v1/pages/{id}` in it, the form the service writes (the
// vault import's links, with or without `#heading` after the id or a host before the path). Found in one linear
// scan, at projection time, so a backlinks listing reads stored rows only.
const PAGE_REFERENCE =
  /\/api\/v1\/pages\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})(?![0-9a-zA-Z-])/g;

/** The distinct page ids `markdown` links to, lower-cased, without `selfId` (a page linking to itself). */
export function linkedPageIds(markdown: string, selfId: string): string[] {
  const ids = new Set<string>();
  for (const match of markdown.matchAll(PAGE_REFERENCE)) {
    const id = (match[1] ?? "").toLowerCase();
    if (id !== selfId.toLowerCase()) ids.add(id);
  }
  return [...ids];
}
