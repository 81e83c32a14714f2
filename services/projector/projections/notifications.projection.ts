// Notifications derived from the events they are about, for everyone an event concerns but its actor: a reply
// to a thread's participants, a resolution or reopening to its starter, a grant to its grantee, a membership to
// the new member. Fan-out runs here, off the request path, capped per event (MAX_RECIPIENTS_PER_EVENT) and per
// user (MAX_NOTIFICATIONS_PER_USER). Read marks are the user's own events; an erasure takes all of
// theirs away. Mentions, groups and watching feed the same `notify` (notifyAll) when their events exist.
import type { StoredEvent } from "../../../shared/events.ts";
import {
  notificationAfter,
  type NotificationCandidate,
} from "../../../shared/notifications/notification-coalescing.ts";
import {
  MAX_NOTIFICATIONS_PER_USER,
  MAX_RECIPIENTS_PER_EVENT,
} from "../../../shared/notifications/notification-limits.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

type Subject = Omit<NotificationCandidate, "userId" | "eventId" | "occurredAt" | "position">;

/**
 * Notifies each recipient but the actor, at most MAX_RECIPIENTS_PER_EVENT of them, coalescing by the subject's
 * key. The hook mentions (kind "mentioned"), group memberships ("group_added") and watches ("watched_changed",
 * coalesceKey `watch:<pageId>`) call with their recipients.
 */
async function notifyAll<Tx>(
  writers: ProjectionWriters<Tx>,
  tx: Tx,
  stored: StoredEvent,
  subject: Subject,
  recipients: Iterable<string>,
): Promise<void> {
  const seen = new Set<string>([subject.actorId]);
  for (const userId of recipients) {
    if (seen.has(userId)) continue;
    seen.add(userId);
    if (seen.size > MAX_RECIPIENTS_PER_EVENT + 1) return;
    const candidate: NotificationCandidate = {
      ...subject,
      userId,
      eventId: stored.id,
      occurredAt: stored.metadata.occurredAt,
      position: stored.position,
    };
    const latest =
      subject.coalesceKey === null ? null : await writers.notifications.latestOf(tx, userId, subject.coalesceKey);
    const next = notificationAfter(latest, candidate);
    if (next !== latest) await writers.notifications.put(tx, next, MAX_NOTIFICATIONS_PER_USER);
  }
}

export async function projectNotifications<Tx>(
  stored: StoredEvent,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  const { event, metadata } = stored;
  const notifications = writers.notifications;
  switch (event.type) {
    case "ThreadOpened":
      return notifications.addParticipant(tx, event.data.threadId, {
        userId: event.data.createdBy,
        pageId: event.data.pageId,
        started: true,
      });
    case "CommentAdded": {
      const { threadId, authorId } = event.data;
      const participants = await notifications.participantsOf(tx, threadId, MAX_RECIPIENTS_PER_EVENT + 1);
      const pageId = event.data.pageId ?? participants[0]?.pageId;
      if (pageId === undefined) return;
      const subject = {
        kind: "replied" as const,
        actorId: authorId,
        pageId,
        folderId: null,
        threadId,
        coalesceKey: `replied:${threadId}`,
      };
      await notifyAll(
        writers,
        tx,
        stored,
        subject,
        participants.map((participant) => participant.userId),
      );
      if (!participants.some((participant) => participant.userId === authorId))
        await notifications.addParticipant(tx, threadId, { userId: authorId, pageId, started: false });
      return;
    }
    case "ThreadResolved":
    case "ThreadReopened": {
      const { threadId } = event.data;
      const starter = (await notifications.participantsOf(tx, threadId, 1)).find((participant) => participant.started);
      if (starter === undefined) return;
      const kind = event.type === "ThreadResolved" ? ("thread_resolved" as const) : ("thread_reopened" as const);
      return notifyAll(
        writers,
        tx,
        stored,
        { kind, actorId: metadata.actorId, pageId: starter.pageId, folderId: null, threadId, coalesceKey: null },
        [starter.userId],
      );
    }
    case "AccessGranted": {
      const { entityType, entityId, userId, grantedBy } = event.data;
      const place = entityType === "page" ? { pageId: entityId, folderId: null } : { pageId: null, folderId: entityId };
      return notifyAll(
        writers,
        tx,
        stored,
        { kind: "shared", actorId: grantedBy, ...place, threadId: null, coalesceKey: null },
        [userId],
      );
    }
    case "WorkspaceMemberAdded": {
      const { memberId, addedBy } = event.data;
      return notifyAll(
        writers,
        tx,
        stored,
        { kind: "workspace_added", actorId: addedBy, pageId: null, folderId: null, threadId: null, coalesceKey: null },
        [memberId],
      );
    }
    case "NotificationsRead": {
      const { userId, ids, upToPosition } = event.data;
      if (ids.length > 0) await notifications.markRead(tx, userId, ids, metadata.occurredAt);
      if (upToPosition !== null) await notifications.markAllRead(tx, userId, upToPosition, metadata.occurredAt);
      return;
    }
    case "UserErasureStarted":
    case "UserErased":
      return notifications.removeUser(tx, event.data.userId);
    case "PagePurged":
      return notifications.removePage(tx, event.data.pageId);
    case "FolderPurged":
      return notifications.removeFolder(tx, event.data.folderId);
    default:
      return;
  }
}
