// Whether a caller watches a page or folder (GET .../watch), and the view check every watch route makes first.
import { visibleFolder, visiblePage } from "../access/authorize.ts";
import type { Principal } from "../auth/principal.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import type { WatchedKind } from "./watches.view.ts";

/** The page or folder, if the caller can view it (404 otherwise), with the folders above it. */
export async function viewable(
  views: ReadModels,
  principal: Principal,
  kind: WatchedKind,
  entityId: string,
): Promise<{ ancestorIds: readonly string[] }> {
  return kind === "page"
    ? (await visiblePage(views, principal, entityId)).page
    : (await visibleFolder(views, principal, entityId)).folder;
}

/**
 * Whether the caller watches the page or folder: their own watch (asked for or automatic) unless they stopped
 * watching it, or else a watch of a folder above it.
 */
export async function watchStatus(
  views: ReadModels,
  principal: Principal,
  kind: WatchedKind,
  entityId: string,
): Promise<{ watching: boolean }> {
  const { ancestorIds } = await viewable(views, principal, kind, entityId);
  const own = await views.watches.stateOf(kind, entityId, principal.user.id);
  if (own !== null) return { watching: own === "watching" };
  return { watching: (await views.watches.watchedFolders(principal.user.id, ancestorIds)).length > 0 };
}
