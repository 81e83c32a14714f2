// Reading history for a caller: whose entries they may see (today's permission on the entity, a deleted
// page judged where it last stood), the entries described, and a page rebuilt as of an instant.
import type { Principal } from "../auth/principal.ts";
import { effectivePermission, type AccessTarget } from "../access/effective-permission.ts";
import { seenBy, type Seen } from "../access/seen-by.ts";
import { AppError } from "../errors/app-error.ts";
import { atLeast, type Permission } from "../kernel/permissions.ts";
import type { PageRecord } from "../pages/pages.view.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { describeHistory, usersNamedBy, type DescribedEntry } from "./describe-history.ts";
import type { HistoryAccess, HistoryEntry } from "./history.view.ts";
import type { Instant } from "./instant.ts";
import { pageAsOf } from "./page-as-of.ts";

interface Located {
  readonly ownerId: string;
  readonly parentId: string | null;
  readonly ancestorIds: string[];
  readonly folderPath: string;
}

export interface PageHistory {
  readonly permission: Permission;
  readonly entries: HistoryEntry[];
  readonly location: Located;
}

async function locationOf(views: ReadModels, live: PageRecord | null, entries: readonly HistoryEntry[]): Promise<Located | null> {
  if (live) return live;
  // A deleted page keeps no listing row for queries: it is judged where it was created (pages do not move).
  const created = entries.find((entry) => entry.event.type === "PageCreated");
  if (!created || created.event.type !== "PageCreated") return null;
  const { ownerId, parentId } = created.event.data;
  const parent = parentId ? await views.folders.get(parentId) : null;
  return { ownerId, parentId, ancestorIds: parent ? [parent.id, ...parent.ancestorIds] : [], folderPath: parent?.path ?? "" };
}

/** The page's entries, if the caller can view it today (404 otherwise, deleted or not). */
export async function pageHistoryFor(views: ReadModels, principal: Principal, pageId: string): Promise<PageHistory> {
  const [live, entries] = await Promise.all([views.pages.get(pageId), views.history.entriesOf(pageId)]);
  const location = await locationOf(views, live, entries);
  const context = location ? await views.access.contextFor(principal.user.id) : null;
  const permission = location && context ? effectivePermission(context, { kind: "page", id: pageId, ...location }) : null;
  if (!location || !permission) throw new AppError("not_found", "page not found");
  return { permission, entries, location };
}

/**
 * The page as it was at the instant, presented as a page record, if the caller can view it today (a deleted
 * page judged where it stood); 404 before it existed and once it was deleted.
 */
export async function pageRecordAt(views: ReadModels, principal: Principal, pageId: string, instant: Instant): Promise<{ shown: Seen<PageRecord>; markdown: string; permission: Permission }> {
  const [live, state] = await Promise.all([views.pages.get(pageId), views.history.pageStateAt(pageId, instant)]);
  const location = await locationOf(views, live, state.entries);
  const context = location ? await views.access.contextFor(principal.user.id) : null;
  const permission = location && context ? effectivePermission(context, { kind: "page", id: pageId, ...location }) : null;
  if (!location || !context || !permission) throw new AppError("not_found", "page not found");
  const then = pageAsOf(state.entries, instant, state.count);
  if (!then) throw new AppError("not_found", "page not found at that instant");
  const { title, icon, markdown, revision, createdAt, updatedAt, updatedPosition } = then;
  const { ownerId, parentId, ancestorIds, folderPath } = location;
  const page: PageRecord = { id: pageId, ownerId, parentId, ancestorIds, folderPath, title, icon, createdAt, updatedAt, updatedPosition, revision };
  return { shown: seenBy(context, page), markdown, permission };
}

/** Entries described for a caller holding `permission`: grants and revocations only for those who may share. */
export async function describeFor(views: ReadModels, entries: readonly HistoryEntry[], permission: Permission): Promise<DescribedEntry[]> {
  const users = await views.users.getMany(usersNamedBy(entries));
  const names = new Map([...users].map(([id, user]) => [id, user.name]));
  const mayShare = atLeast(permission, "admin");
  return describeHistory(entries, names).filter((described) => mayShare || !described.sharing);
}

/** Whose permission governs entries under `access` today: a deleted page where it last stood; null when unknown. */
export async function accessTargetOf(views: ReadModels, access: HistoryAccess): Promise<AccessTarget | null> {
  if (access.kind === "folder") {
    const folder = await views.folders.get(access.id);
    return folder ? { kind: "folder", ...folder } : null;
  }
  const live = await views.pages.get(access.id);
  const location = await locationOf(views, live, live ? [] : await views.history.entriesOf(access.id));
  return location ? { kind: "page", id: access.id, ...location } : null;
}
