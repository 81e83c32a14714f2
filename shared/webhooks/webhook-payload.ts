// What a delivery says: `{type, timestamp, data}` where data names the event (id, position, actor, time) and
// the ids it mentions, never a title, body or markdown. A consumer reads content with its own token, so it sees
// exactly what that token may see now, and the delivery log stores nothing sensitive.
import { createHash } from "node:crypto";
import { z } from "zod";
import type { StoredEvent } from "../events.ts";
import type { HistoryAccess } from "../history/history.view.ts";
import { tokenOfPosition } from "../position.ts";
import type { NotificationRecord } from "../notifications/notifications.view.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import type { WebhookEventName } from "./webhook-event-names.ts";

/**
 * Ids a payload names. Never `parentId`: the folder an item sits in may be one the webhook's owner cannot view, and
 * hidden folders stay hidden (a consumer reads the item with its own token, which shows only folders it can view).
 */
const ID_FIELDS = [
  "pageId",
  "folderId",
  "threadId",
  "commentId",
  "imageId",
  "entityType",
  "entityId",
  "userId",
  "groupId",
  "memberId",
  "linkId",
] as const;

/**
 * The page or folder whose permission decides who may see the event (a thread's page); a group's workspace (its
 * owner's id) for a group's changes; null when gone.
 */
export async function scopeOf(views: ReadModels, stored: StoredEvent): Promise<HistoryAccess | null> {
  const data = stored.event.data as Readonly<Record<string, unknown>>;
  if (
    stored.event.type === "GroupCreated" ||
    stored.event.type === "GroupRenamed" ||
    stored.event.type === "GroupDeleted" ||
    stored.event.type === "GroupMemberAdded" ||
    stored.event.type === "GroupMemberRemoved" ||
    stored.event.type === "GroupRoleChanged"
  ) {
    return { kind: "workspace", id: stored.event.data.ownerId };
  }
  if (
    stored.event.type === "AccessGranted" ||
    stored.event.type === "AccessRevoked" ||
    stored.event.type === "GroupAccessGranted" ||
    stored.event.type === "GroupAccessRevoked" ||
    stored.event.type === "ShareLinkCreated" ||
    stored.event.type === "ShareLinkChanged" ||
    stored.event.type === "ShareLinkRevoked"
  ) {
    return { kind: stored.event.data.entityType, id: stored.event.data.entityId };
  }
  if (typeof data.threadId === "string") {
    const thread = await views.threads.get(data.threadId);
    return thread ? { kind: "page", id: thread.pageId } : null;
  }
  if (typeof data.pageId === "string") return { kind: "page", id: data.pageId };
  if (typeof data.folderId === "string") return { kind: "folder", id: data.folderId };
  return null;
}

export function webhookPayload(stored: StoredEvent, type: WebhookEventName, scope: HistoryAccess): string {
  const fields = stored.event.data as Readonly<Record<string, unknown>>;
  const ids = Object.fromEntries(
    ID_FIELDS.flatMap((key) => (typeof fields[key] === "string" || fields[key] === null ? [[key, fields[key]]] : [])),
  );
  return JSON.stringify({
    type,
    timestamp: stored.metadata.occurredAt,
    data: {
      eventId: stored.id,
      position: tokenOfPosition(stored.position),
      actorId: stored.metadata.actorId,
      occurredAt: stored.metadata.occurredAt,
      ...ids,
      scope: { type: scope.kind, id: scope.id },
    },
  });
}

/**
 * A `notification.created` delivery: the owner's own notification by ids (no page scope: the owner is its
 * recipient). `position` is that of the notification's latest change, a position as the API gives them.
 */
export function notificationPayload(record: NotificationRecord): string {
  return JSON.stringify({
    type: "notification.created",
    timestamp: record.updatedAt,
    data: {
      notificationId: record.id,
      kind: record.kind,
      actorId: record.actorId,
      pageId: record.pageId,
      folderId: record.folderId,
      threadId: record.threadId,
      groupId: record.groupId,
      createdAt: record.createdAt,
      position: tokenOfPosition(record.position),
    },
  });
}

const payloadNotification = z.object({ data: z.object({ notificationId: z.string() }) });

/** The notification a `notification.created` payload names, read back for the check at send time. */
export function notificationIdOfPayload(payload: string): string | null {
  const parsed = payloadNotification.safeParse(JSON.parse(payload));
  return parsed.success ? parsed.data.data.notificationId : null;
}

const payloadScope = z.object({
  data: z.object({ scope: z.object({ type: z.enum(["page", "folder", "workspace"]), id: z.string() }) }),
});

/** The scope a delivery's payload names, read back for the access check at send time. */
export function scopeOfPayload(payload: string): HistoryAccess | null {
  const parsed = payloadScope.safeParse(JSON.parse(payload));
  return parsed.success ? { kind: parsed.data.data.scope.type, id: parsed.data.data.scope.id } : null;
}

/**
 * A delivery's id, the webhook-id header: the same for every attempt of one delivery (receivers de-duplicate on
 * it) and derived from what it delivers, so matching the same event twice (after a crash) makes no second row.
 */
export function deliveryIdOf(webhookId: string, eventId: string, origin: string): string {
  const hex = createHash("sha256").update(`${webhookId}\n${eventId}\n${origin}`).digest("hex");
  const variant = ((Number.parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}
