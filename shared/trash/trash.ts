// The trash as a caller sees it (bringing an item back: restore-from-trash.ts). An item is judged where it would
// return: its folder when that folder still exists (and is not itself deleted), otherwise its owner's root; the
// caller needs edit there, as for any change to it (404 when they could not even view it, exactly as for a
// missing item).
import type { Principal } from "../auth/principal.ts";
import { effectivePermission } from "../access/effective-permission.ts";
import type { AccessContext } from "../access/access-context.ts";
import { seenBy } from "../access/seen-by.ts";
import { placedIn } from "../folders/folder-place.ts";
import { atLeast, type Permission } from "../kernel/permissions.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { pageOf, type Page } from "../read-store/pagination.ts";
import type { TrashItem, TrashType } from "./trash.view.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Trash rows read per step while looking for a page of items the caller may edit. */
const STEP = 100;

const purgeAtOf = (item: Pick<TrashItem, "deletedAt">, retentionDays: number): string =>
  new Date(Date.parse(item.deletedAt) + retentionDays * DAY_MS).toISOString();

/** The instant before which deleted items are due for purging. */
export const purgeBefore = (now: Date, retentionDays: number): string =>
  new Date(now.getTime() - retentionDays * DAY_MS).toISOString();

export interface TrashEntry {
  readonly type: TrashType;
  readonly id: string;
  readonly title: string;
  readonly deletedAt: string;
  readonly deletedBy: string;
  readonly purgeAt: string;
  readonly parentId: string | null;
  readonly folderPath: string;
}

export interface Placed {
  readonly item: TrashItem;
  readonly parentId: string | null;
  readonly ancestorIds: readonly string[];
  readonly folderPath: string;
}

/** Where the item would return: its folder if that still exists, else the root of its owner's workspace. */
export async function placed(views: ReadModels, item: TrashItem): Promise<Placed> {
  const folder = item.parentId === null ? null : await views.folders.get(item.parentId);
  return { item, parentId: folder ? folder.id : null, ...placedIn(folder) };
}

export const permissionOn = (context: AccessContext, place: Placed): Permission | null =>
  effectivePermission(context, {
    kind: place.item.type,
    id: place.item.id,
    ownerId: place.item.ownerId,
    ancestorIds: place.ancestorIds,
  });

function entryOf(context: AccessContext, place: Placed, retentionDays: number): TrashEntry {
  const { item } = place;
  const shown = seenBy(context, {
    ownerId: item.ownerId,
    parentId: place.parentId,
    ancestorIds: place.ancestorIds,
    folderPath: place.folderPath,
  });
  const { type, id, title, deletedAt, deletedBy } = item;
  return {
    type,
    id,
    title,
    deletedAt,
    deletedBy,
    purgeAt: purgeAtOf(item, retentionDays),
    parentId: shown.parentId,
    folderPath: shown.folderPath ?? "",
  };
}

/** The caller's permission on a trash item, judged where it would return; null when they cannot see it. */
export async function trashPermission(
  views: ReadModels,
  principal: Principal,
  item: TrashItem,
): Promise<Permission | null> {
  const context = await views.access.contextFor(principal.user.id);
  return permissionOn(context, await placed(views, item));
}

const editable = (grants: ReadonlyMap<string, Permission>): string[] =>
  [...grants].flatMap(([id, permission]) => (atLeast(permission, "edit") ? [id] : []));

/**
 * The caller's trash, newest deletion first: what they may edit, found through the workspaces they own or belong
 * to and through their edit grants (on the item itself, or on a folder above where it was deleted from).
 */
export async function listTrash(
  views: ReadModels,
  principal: Principal,
  query: { before: number | null; limit: number; retentionDays: number },
): Promise<Page<TrashEntry>> {
  const context = await views.access.contextFor(principal.user.id);
  const sources = {
    ownerIds: [context.userId, ...context.workspaceRoles.keys()],
    folderIds: editable(context.folderGrants),
    pageIds: editable(context.pageGrants),
  };
  const found: Array<{ entry: TrashEntry; position: number }> = [];
  const step = Math.max(STEP, query.limit + 1);
  let before = query.before;
  for (;;) {
    const items = await views.trash.list(sources, before, step);
    for (const item of items) {
      const place = await placed(views, item);
      const permission = permissionOn(context, place);
      if (permission && atLeast(permission, "edit"))
        found.push({ entry: entryOf(context, place, query.retentionDays), position: item.position });
      if (found.length > query.limit) break;
    }
    const last = items.at(-1);
    if (found.length > query.limit || items.length < step || last === undefined) break;
    before = last.position;
  }
  // Every deletion is an event of its own (a recursive one too, item by item): positions are unique.
  const { rows, nextCursor } = pageOf(found, query.limit, (row) => ({ position: row.position, id: "" }));
  return { data: rows.map((row) => row.entry), nextCursor };
}
