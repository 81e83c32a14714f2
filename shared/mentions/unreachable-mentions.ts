// Which mentions of a text reach nobody: those naming a user who cannot view the page (or no user at all). The
// answer says which, never why: an unknown id and a user without access read the same. A mention grants nothing.
import { effectivePermission, type AccessTarget } from "../access/effective-permission.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { mentionedUserIds } from "./mentions.ts";

export async function unreachableMentions(
  views: Pick<ReadModels, "users" | "access">,
  page: Omit<AccessTarget, "kind">,
  text: string,
): Promise<string[]> {
  const mentioned = mentionedUserIds(text);
  if (mentioned.length === 0) return [];
  const users = await views.users.getMany(mentioned);
  const unreachable: string[] = [];
  for (const userId of mentioned) {
    const reachable =
      users.has(userId) &&
      effectivePermission(await views.access.contextFor(userId), { kind: "page", ...page }) !== null;
    if (!reachable) unreachable.push(userId);
  }
  return unreachable;
}

/** As unreachableMentions, on a page named by id as the read models hold it ([] when they do not hold it). */
export async function unreachableMentionsOn(
  views: Pick<ReadModels, "users" | "access" | "pages">,
  pageId: string,
  text: string,
): Promise<string[]> {
  if (mentionedUserIds(text).length === 0) return [];
  const page = await views.pages.get(pageId);
  return page === null ? [] : unreachableMentions(views, page, text);
}

/** The response header of a content write (whose answer is the page's markdown) naming its unreachable mentions. */
const UNREACHABLE_MENTIONS_HEADER = "unreachable-mentions";

/** The header's value, comma-separated; no header when every mention reaches someone. */
export const unreachableMentionsHeader = (ids: readonly string[]): Record<string, string> =>
  ids.length === 0 ? {} : { [UNREACHABLE_MENTIONS_HEADER]: ids.join(", ") };
