// Reading history for a caller: whose entries they may see (today's permission on the entity, a deleted
// page judged where it last stood), decided before any history row is read, so a stranger's request costs the
// same whatever the page's history; then one page of stored changes, named, and a page rebuilt as of an instant.
import { credentialOf } from "../apps/credential-of.ts";
import type { Principal } from "../auth/principal.ts";
import { effectivePermission, type AccessTarget } from "../access/effective-permission.ts";
import type { AccessContext } from "../access/access-context.ts";
import { seenBy, type Seen } from "../access/seen-by.ts";
import { AppError } from "../errors/app-error.ts";
import { placedIn } from "../folders/folder-place.ts";
import { managesWorkspace } from "../groups/visible-group.ts";
import { atLeast, type Permission } from "../kernel/permissions.ts";
import type { PageRecord } from "../pages/page-record.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { describeChange, usersNamedBy, type DescribedEntry } from "./describe-history.ts";
import { entriesSeenBy, foldersNamedBy, type FolderStanding } from "./history-seen-by.ts";
import type { HistoryAccess, HistoryChange } from "./history.view.ts";
import type { Instant } from "./instant.ts";
import { pageAsOf } from "./page-as-of.ts";

interface Located {
  readonly ownerId: string;
  readonly parentId: string | null;
  readonly ancestorIds: string[];
  readonly folderPath: string;
}

/** One page of history as the route asks for it: `from` an exclusive position cursor in `order`. */
export interface HistoryPageQuery {
  readonly order: "asc" | "desc";
  readonly from: number | null;
  readonly limit: number;
}

export interface HistoryPage {
  readonly data: DescribedEntry[];
  /** Position of the last entry returned, when more follow. */
  readonly next: number | null;
}

/**
 * Where a page stands: its listing row, or for a deleted page (which keeps no listing row) its trash entry, where
 * it stood when deleted (a deleted page cannot move). Both are fixed-size records: nothing that grows with the
 * page (its markdown, its history) is read before access is decided.
 */
async function locationOf(views: ReadModels, pageId: string): Promise<Located | null> {
  const live = await views.pages.get(pageId);
  if (live) return live;
  const trashed = await views.trash.get("page", pageId);
  if (!trashed) return null;
  const { ownerId, parentId } = trashed;
  const parent = parentId ? await views.folders.get(parentId) : null;
  return { ownerId, parentId, ...placedIn(parent) };
}

/** The caller's permission on the page today (deleted or not), or 404 the same way whether it exists or not. */
async function pagePermission(
  views: ReadModels,
  principal: Principal,
  pageId: string,
): Promise<{ permission: Permission; location: Located; context: AccessContext }> {
  const [location, context] = await Promise.all([
    locationOf(views, pageId),
    views.access.contextFor(principal.user.id),
  ]);
  const permission = location ? effectivePermission(context, { kind: "page", id: pageId, ...location }) : null;
  if (!location || !permission) throw new AppError("not_found", "page not found");
  return { permission, location, context };
}

/**
 * One page of an entity's stored changes, named and shaped for the caller: grants and revocations only for
 * those who may share, folders they cannot view as null.
 */
export async function historyPageOf(
  views: ReadModels,
  entityId: string,
  caller: { permission: Permission; context: AccessContext },
  query: HistoryPageQuery,
): Promise<HistoryPage> {
  const rows = await views.history.changesOf(entityId, {
    ...query,
    limit: query.limit + 1,
    withSharing: atLeast(caller.permission, "admin"),
  });
  const kept = rows.slice(0, query.limit);
  const last = kept[kept.length - 1];
  const described = await describeFor(views, kept);
  const standings = await folderStandingsOf(views, foldersNamedBy(described));
  return {
    data: entriesSeenBy(caller.context, described, standings),
    next: rows.length > query.limit && last ? last.position : null,
  };
}

/** The page's history, if the caller can view it today (404 otherwise, deleted or not). */
export async function pageHistoryFor(
  views: ReadModels,
  principal: Principal,
  pageId: string,
  query: HistoryPageQuery,
): Promise<HistoryPage> {
  const { permission, context } = await pagePermission(views, principal, pageId);
  return historyPageOf(views, pageId, { permission, context }, query);
}

/**
 * The page as it was at the instant, presented as a page record, if the caller can view it today (a deleted
 * page judged where it stood); 404 before it existed and once it was deleted.
 */
export async function pageRecordAt(
  views: ReadModels,
  principal: Principal,
  pageId: string,
  instant: Instant,
): Promise<{ shown: Seen<PageRecord>; markdown: string; permission: Permission }> {
  const { permission, location, context } = await pagePermission(views, principal, pageId);
  const state = await views.history.pageStateAt(pageId, instant);
  const then = pageAsOf(state.entries, instant, state.count);
  if (!then) throw new AppError("not_found", "page not found at that instant");
  const { title, icon, markdown, revision, createdAt, updatedAt, updatedPosition } = then;
  const { ownerId, parentId, ancestorIds, folderPath } = location;
  const page: PageRecord = {
    id: pageId,
    ownerId,
    parentId,
    ancestorIds,
    folderPath,
    title,
    icon,
    createdAt,
    updatedAt,
    updatedPosition,
    revision,
  };
  return { shown: seenBy(context, page), markdown, permission };
}

/** Stored changes as a client sees them, with the users they name loaded once. */
export async function describeFor(views: ReadModels, changes: readonly HistoryChange[]): Promise<DescribedEntry[]> {
  const users = await views.users.getMany(usersNamedBy(changes));
  const names = new Map([...users].map(([id, user]) => [id, user.name]));
  // Changes made through API tokens or OAuth apps name them: a page of history holds few, looked up once each.
  const tokenIds = [...new Set(changes.flatMap((change) => (change.tokenId ? [change.tokenId] : [])))];
  const tokens = await Promise.all(tokenIds.map(async (id) => [id, await credentialOf(views, id)] as const));
  const tokenNames = new Map(tokens.flatMap(([id, token]) => (token ? [[id, token.name] as const] : [])));
  return changes.map((change) => describeChange(change, names, tokenNames));
}

/**
 * Where each folder stands, for deciding who may see it named: its record, or its trash entry once deleted;
 * null when neither remains. One lookup per distinct id: `known` carries them across a batch's readers.
 */
export async function folderStandingsOf(
  views: ReadModels,
  ids: readonly string[],
  known: Map<string, Promise<FolderStanding | null>> = new Map(),
): Promise<Map<string, FolderStanding | null>> {
  const standings = ids.map(async (id): Promise<[string, FolderStanding | null]> => {
    let standing = known.get(id);
    if (!standing) {
      standing = folderStandingOf(views, id);
      known.set(id, standing);
    }
    return [id, await standing];
  });
  return new Map(await Promise.all(standings));
}

async function folderStandingOf(views: ReadModels, id: string): Promise<FolderStanding | null> {
  const folder = await views.folders.get(id);
  if (folder) return { ownerId: folder.ownerId, ancestorIds: folder.ancestorIds, inTrash: false };
  const trashed = await views.trash.get("folder", id);
  return trashed ? { ownerId: trashed.ownerId, ancestorIds: [], inTrash: true } : null;
}

/**
 * Whose permission governs entries under `access` today: a deleted page where it last stood; null when unknown, and
 * for a workspace's entries (a group's changes), which no page or folder permission covers (see seesWorkspaceEntry).
 */
export async function accessTargetOf(views: ReadModels, access: HistoryAccess): Promise<AccessTarget | null> {
  if (access.kind === "workspace") return null;
  if (access.kind === "folder") {
    const folder = await views.folders.get(access.id);
    return folder ? { kind: "folder", ...folder } : null;
  }
  const location = await locationOf(views, access.id);
  return location ? { kind: "page", id: access.id, ...location } : null;
}

/** Whether the caller may see a workspace's entry (a group's change): they manage the workspace or are in the group. */
export const seesWorkspaceEntry = (
  context: AccessContext,
  entry: Pick<HistoryChange, "access" | "entityKind" | "entityId">,
): boolean =>
  managesWorkspace(context, entry.access.id) || (entry.entityKind === "group" && context.groupIds.has(entry.entityId));
