// Pure: what one event does to one recipient's notifications. The first event of a subject adds a notification;
// later ones within the hour of it, while it is unread, update that same one (how many, and who) instead.
import { createHash } from "node:crypto";
import type { NotificationKind } from "./notification-kinds.ts";
import { COALESCE_WINDOW_MS, MAX_ACTORS_NAMED } from "./notification-limits.ts";
import type { NotificationRecord } from "./notifications.view.ts";

/** What an event tells one recipient. */
export interface NotificationCandidate {
  readonly userId: string;
  readonly kind: NotificationKind;
  readonly actorId: string;
  readonly pageId: string | null;
  readonly folderId: string | null;
  readonly threadId: string | null;
  readonly groupId: string | null;
  /** Events of one key coalesce (replies in one thread, changes of one watched page); null never coalesces. */
  readonly coalesceKey: string | null;
  /** The event's id: with the recipient, it names the notification, so a replayed batch converges. */
  readonly eventId: string;
  readonly occurredAt: string;
  readonly position: number;
}

/** A stable uuid-shaped id from the event and the recipient. */
export function notificationIdOf(eventId: string, userId: string): string {
  const hex = createHash("sha256").update(`${eventId}:${userId}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const withinWindow = (first: string, at: string): boolean => {
  const elapsed = Date.parse(at) - Date.parse(first);
  return elapsed >= 0 && elapsed < COALESCE_WINDOW_MS;
};

/** The notification the recipient holds after the event, given their latest one of the same key. */
export function notificationAfter(
  latest: NotificationRecord | null,
  candidate: NotificationCandidate,
): NotificationRecord {
  const coalesceKey = candidate.coalesceKey ?? `event:${candidate.eventId}`;
  const id = notificationIdOf(candidate.eventId, candidate.userId);
  // The event was projected before (a replayed batch): nothing changes.
  if (latest !== null && (latest.id === id || latest.position === candidate.position)) return latest;
  if (
    latest !== null &&
    candidate.coalesceKey !== null &&
    latest.readAt === null &&
    withinWindow(latest.createdAt, candidate.occurredAt)
  ) {
    if (candidate.position < latest.position) return latest;
    return {
      ...latest,
      actorId: candidate.actorId,
      count: latest.count + 1,
      actorIds: [candidate.actorId, ...latest.actorIds.filter((id) => id !== candidate.actorId)].slice(
        0,
        MAX_ACTORS_NAMED,
      ),
      updatedAt: candidate.occurredAt,
      position: candidate.position,
    };
  }
  return {
    id,
    userId: candidate.userId,
    kind: candidate.kind,
    actorId: candidate.actorId,
    pageId: candidate.pageId,
    folderId: candidate.folderId,
    threadId: candidate.threadId,
    groupId: candidate.groupId,
    coalesceKey,
    createdAt: candidate.occurredAt,
    updatedAt: candidate.occurredAt,
    readAt: null,
    count: 1,
    actorIds: [candidate.actorId],
    position: candidate.position,
  };
}
