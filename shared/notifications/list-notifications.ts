// The caller's notifications, newest change first, leaving out those about what they can no longer view
// (invisible is missing: a page or folder they lost, a group they left or that was deleted): each page or folder is checked once against the caller's access context, on its
// fixed-size record, and a page reads at most MAX_ROWS_SCANNED_PER_PAGE rows however many are left out.
import { effectivePermission } from "../access/effective-permission.ts";
import type { AccessContext } from "../access/access-context.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { MAX_NOTIFICATIONS_PER_USER, MAX_ROWS_SCANNED_PER_PAGE } from "./notification-limits.ts";
import type { NotificationRecord } from "./notifications.view.ts";

type Views = Pick<ReadModels, "notifications" | "pages" | "folders" | "access">;

export interface NotificationList {
  readonly data: NotificationRecord[];
  /** Position to resume below, or null at the end. */
  readonly nextBefore: number | null;
  readonly unreadCount: number;
}

/** Remembers, per request, whether the caller can view each page and folder notifications name. */
export function visibilityOf(views: Views, context: AccessContext): (n: NotificationRecord) => Promise<boolean> {
  const known = new Map<string, boolean>();
  const check = async (kind: "page" | "folder", id: string): Promise<boolean> => {
    const cached = known.get(`${kind}:${id}`);
    if (cached !== undefined) return cached;
    const record = kind === "page" ? await views.pages.get(id) : await views.folders.get(id);
    const visible = record !== null && effectivePermission(context, { kind, ...record }) !== null;
    known.set(`${kind}:${id}`, visible);
    return visible;
  };
  return async (n) =>
    (n.groupId === null || context.groupIds.has(n.groupId)) &&
    (n.pageId === null || (await check("page", n.pageId))) &&
    (n.folderId === null || (await check("folder", n.folderId)));
}

export async function listNotifications(
  views: Views,
  userId: string,
  query: { before: number | null; limit: number; unreadOnly: boolean },
): Promise<NotificationList> {
  const visible = visibilityOf(views, await views.access.contextFor(userId));
  const data: NotificationRecord[] = [];
  let before = query.before;
  let scanned = 0;
  let nextBefore: number | null = null;
  while (scanned < MAX_ROWS_SCANNED_PER_PAGE) {
    const chunk = await views.notifications.list({
      userId,
      unreadOnly: query.unreadOnly,
      before,
      limit: Math.min(query.limit + 1, MAX_ROWS_SCANNED_PER_PAGE - scanned),
    });
    for (const row of chunk) {
      scanned += 1;
      if (!(await visible(row))) {
        before = row.position;
        continue;
      }
      if (data.length === query.limit) {
        nextBefore = before;
        break;
      }
      data.push(row);
      before = row.position;
    }
    if (nextBefore !== null || chunk.length < query.limit + 1) break;
  }
  // Rows left unread past the scan bound: resume where the scan stopped.
  if (nextBefore === null && scanned >= MAX_ROWS_SCANNED_PER_PAGE) nextBefore = before;
  const unread = await views.notifications.unread(userId, MAX_NOTIFICATIONS_PER_USER);
  let unreadCount = 0;
  for (const row of unread) if (await visible(row)) unreadCount += 1;
  return { data, nextBefore, unreadCount };
}
