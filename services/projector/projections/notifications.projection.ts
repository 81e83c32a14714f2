// Notifications derived from the events they are about, for everyone an event concerns but its actor: a reply
// to a thread's participants, a resolution or reopening to its starter, a grant to its grantee (or to a group's
// members), a membership to the new member, a new mention to the mentioned user, a content change to the
// watchers of the page and of every folder above it. Fan-out runs here, off the request path, in batches,
// capped per event (MAX_RECIPIENTS_PER_EVENT) and per user (MAX_NOTIFICATIONS_PER_USER); mentions and watches
// reach only those who can view the page at that point. Read marks are the user's own events; an
// erasure takes all of theirs away.
import type { AccessTarget } from "../../../shared/access/effective-permission.ts";
import type { StoredEvent } from "../../../shared/events.ts";
import { mentionedUserIds } from "../../../shared/mentions/mentions.ts";
import type { MentionSource } from "../../../shared/mentions/mentions.view.ts";
import {
  notificationAfter,
  type NotificationCandidate,
} from "../../../shared/notifications/notification-coalescing.ts";
import {
  MAX_NOTIFICATIONS_PER_USER,
  MAX_RECIPIENTS_PER_EVENT,
} from "../../../shared/notifications/notification-limits.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";
import {
  membersOfGroup,
  newlyMentioned,
  newPageTarget,
  pageTarget,
  watchersOfPage,
  whoCanView,
} from "./notification-recipients.ts";

/** What an event tells its recipients; `groupId` only for a group's kinds. */
type Subject = Omit<NotificationCandidate, "userId" | "eventId" | "occurredAt" | "position" | "groupId"> & {
  readonly groupId?: string;
};

/**
 * Notifies each recipient but the actor, at most MAX_RECIPIENTS_PER_EVENT of them, coalescing by the subject's
 * key (a watch's "watched_changed" by `watch:<pageId>`).
 */
async function notifyAll<Tx>(
  writers: ProjectionWriters<Tx>,
  tx: Tx,
  stored: StoredEvent,
  subject: Subject,
  recipients: Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  const seen = new Set<string>([subject.actorId]);
  for await (const userId of recipients) {
    if (seen.has(userId)) continue;
    seen.add(userId);
    if (seen.size > MAX_RECIPIENTS_PER_EVENT + 1) return;
    const candidate: NotificationCandidate = {
      ...subject,
      groupId: subject.groupId ?? null,
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

/** The users a text newly mentions who can view its page: each is told once, when the mention is added. */
async function notifyMentioned<Tx>(
  writers: ProjectionWriters<Tx>,
  tx: Tx,
  stored: StoredEvent,
  mention: {
    source: MentionSource;
    text: string;
    /** The page, looked up only when the text mentions someone. */
    target: () => Promise<AccessTarget | null>;
    threadId: string | null;
  },
): Promise<void> {
  const { source, text, threadId } = mention;
  if (mentionedUserIds(text).length === 0) return;
  const target = await mention.target();
  if (target === null) return;
  const added = (await newlyMentioned(writers, tx, source, text)).filter((id) => id !== stored.metadata.actorId);
  if (added.length === 0) return;
  const subject = {
    kind: "mentioned" as const,
    actorId: stored.metadata.actorId,
    pageId: target.id,
    folderId: null,
    threadId,
    coalesceKey: null,
  };
  await notifyAll(writers, tx, stored, subject, whoCanView(writers, tx, target, added, stored.metadata.actorId));
}

/** A comment's page: named by the event, or (comments recorded before) by its thread's page. */
async function pageOfComment<Tx>(
  writers: ProjectionWriters<Tx>,
  tx: Tx,
  data: { threadId: string; pageId?: string | undefined },
): Promise<AccessTarget | null> {
  const pageId = data.pageId ?? (await writers.history.accessOf(tx, data.threadId))?.id;
  return pageId === undefined ? null : pageTarget(writers, tx, pageId);
}

export async function projectNotifications<Tx>(
  stored: StoredEvent,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  const { event, metadata } = stored;
  const notifications = writers.notifications;
  switch (event.type) {
    case "PageCreated": {
      const { pageId, markdown } = event.data;
      const target = () => newPageTarget(writers, tx, event.data);
      const source = { kind: "page" as const, id: pageId };
      return notifyMentioned(writers, tx, stored, { source, text: markdown, target, threadId: null });
    }
    case "PageContentReplaced":
    case "PageRestored": {
      const { pageId, markdown } = event.data;
      const target = await pageTarget(writers, tx, pageId);
      if (target === null) return;
      const source = { kind: "page" as const, id: pageId };
      const known = async () => target;
      await notifyMentioned(writers, tx, stored, { source, text: markdown, target: known, threadId: null });
      const subject = {
        kind: "watched_changed" as const,
        actorId: metadata.actorId,
        pageId,
        folderId: null,
        threadId: null,
        coalesceKey: `watch:${pageId}`,
      };
      return notifyAll(
        writers,
        tx,
        stored,
        subject,
        whoCanView(writers, tx, target, watchersOfPage(writers, tx, target), metadata.actorId),
      );
    }
    case "CommentEdited": {
      const { threadId, commentId, body } = event.data;
      const target = () => pageOfComment(writers, tx, event.data);
      const source = { kind: "comment" as const, id: commentId };
      return notifyMentioned(writers, tx, stored, { source, text: body, target, threadId });
    }
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
      const source = { kind: "comment" as const, id: event.data.commentId };
      const target = () => pageTarget(writers, tx, pageId);
      return notifyMentioned(writers, tx, stored, { source, text: event.data.body, target, threadId });
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
    case "GroupAccessGranted": {
      const { entityType, entityId, groupId, grantedBy } = event.data;
      const place = entityType === "page" ? { pageId: entityId, folderId: null } : { pageId: null, folderId: entityId };
      const subject = { kind: "shared" as const, actorId: grantedBy, ...place, threadId: null, coalesceKey: null };
      return notifyAll(writers, tx, stored, subject, membersOfGroup(writers, tx, groupId));
    }
    case "GroupMemberAdded": {
      const { groupId, memberId, addedBy } = event.data;
      const subject = {
        kind: "group_added" as const,
        actorId: addedBy,
        pageId: null,
        folderId: null,
        threadId: null,
        groupId,
        coalesceKey: null,
      };
      return notifyAll(writers, tx, stored, subject, [memberId]);
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
