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
