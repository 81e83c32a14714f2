// Exact-title lookup for a caller (GET /pages/resolve and the MCP server's resolve_page): pages they can see
// whose title matches ignoring case, optionally only in a folder path as they are shown it (a hidden folder's
// name matches nothing).
import type { Principal } from "../auth/principal.ts";
import { presentVisible, visibilityFilter } from "../access/effective-permission.ts";
import { seenBy } from "../access/seen-by.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { toPageResource, type PageResource } from "./page.resource.ts";
import { titleKey } from "./pages.view.ts";

/** Exact-title lookups answer at most this many pages, newest first, with no cursor (docs/guide/requests.md). */
const RESOLVE_LIMIT = 100;
/** Visible same-titled pages considered before the folderPath filter. */
const RESOLVE_CANDIDATES = 1_000;

/** Folder names are stored in NFC: the path asked for is compared in NFC too, part by part, ignoring case. */
const folderPathKey = (path: string): string =>
  path
    .normalize("NFC")
    .split("/")
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part.length > 0)
    .join("/");

export async function resolvePages(
  views: ReadModels,
  principal: Principal,
  query: { readonly title: string; readonly folderPath?: string | undefined },
): Promise<Array<PageResource & { folderPath: string }>> {
  const context = await views.access.contextFor(principal.user.id);
  const wantedPath = query.folderPath === undefined ? null : folderPathKey(query.folderPath);
  // Only pages the caller can see are candidates (the filter is inside the query), so a folderPath filter
  // applied here can be hidden by nothing but the caller's own same-titled pages.
  const candidates = await views.pages.findByTitleKey(
    titleKey(query.title),
    visibilityFilter(context),
    RESOLVE_CANDIDATES,
  );
  // The path compared is the one the caller is shown, so a hidden folder's name matches nothing.
  const inPath = candidates.filter(
    (page) => wantedPath === null || folderPathKey(seenBy(context, page).folderPath) === wantedPath,
  );
  const data = presentVisible(context, "page", inPath, (page, permission) => ({
    ...toPageResource(page, permission),
    folderPath: page.folderPath,
  }));
  return data.slice(0, RESOLVE_LIMIT);
}
