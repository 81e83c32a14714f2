// Read model of notifications: derived from the log by the projector (never written by a query node), one row
// per notification of one user, newest change first; beside it each thread's participants (who a reply
// notifies). Each user's settings are one record of their own (watching/notification-settings.view.ts). Read marks come from NotificationsRead events on the user's stream.
import type { NotificationKind } from "./notification-kinds.ts";

export interface NotificationRecord {
  readonly id: string;
  readonly userId: string;
  readonly kind: NotificationKind;
  /** The latest actor. */
  readonly actorId: string;
  readonly pageId: string | null;
  readonly folderId: string | null;
  readonly threadId: string | null;
  /** The group a `group_added` notification is about (null for other kinds). */
  readonly groupId: string | null;
  /** Later notifications of the same subject within the window update this one (notification-coalescing.ts). */
  readonly coalesceKey: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly readAt: string | null;
  /** How many events this notification stands for (1 unless coalesced). */
  readonly count: number;
  /** Who caused them, latest first, at most MAX_ACTORS_NAMED. */
  readonly actorIds: readonly string[];
  /** Global position of its latest change: the list's order and cursor. */
  readonly position: number;
}

export interface NotificationsQuery {
  readonly userId: string;
  readonly unreadOnly: boolean;
  /** Strictly below this position (null: from the newest). */
  readonly before: number | null;
  readonly limit: number;
}

export interface NotificationsView {
  list(query: NotificationsQuery): Promise<NotificationRecord[]>;
  /** The user's notifications among `ids` (others' and unknown ids are left out). */
  getMany(userId: string, ids: readonly string[]): Promise<NotificationRecord[]>;
  /** The user's unread notifications, newest first, up to `limit` (the per-user cap bounds them anyway). */
  unread(userId: string, limit: number): Promise<NotificationRecord[]>;
  /** Notifications whose latest change is at `position`: what one event produced, for the notifier's email. */
  producedAt(position: number, limit: number): Promise<NotificationRecord[]>;
  /** The user's notifications changed after `afterPosition`, unread, oldest first: a digest's contents. */
  unreadSince(userId: string, afterPosition: number, limit: number): Promise<NotificationRecord[]>;
  /**
   * Notifications whose latest change is in (after, upTo], by position then id, from the keyset `from` on: what
   * a batch of events produced, for the publisher.
   */
  producedBetween(
    after: number,
    upTo: number,
    from: { readonly position: number; readonly id: string } | null,
    limit: number,
  ): Promise<NotificationRecord[]>;
  /**
   * The user's notifications whose latest change is in (after, upTo], oldest first (position, then id), up to
   * `limit`: what a change feed delivers for that stretch of the log.
   */
  changedBetween(userId: string, after: number, upTo: number, limit: number): Promise<NotificationRecord[]>;
  /** Users with an unread notification, by id, after `afterUserId`: whom a daily digest may concern. */
  usersWithUnread(afterUserId: string | null, limit: number): Promise<string[]>;
}

export interface ThreadParticipant {
  readonly userId: string;
  readonly pageId: string;
  readonly started: boolean;
}

export interface NotificationsWriter<Tx> {
  /** The open notification of `coalesceKey` for the user, if any (the latest). */
  latestOf(tx: Tx, userId: string, coalesceKey: string): Promise<NotificationRecord | null>;
  /** Writes the notification (new or updated) and drops the user's oldest past `keep`. */
  put(tx: Tx, notification: NotificationRecord, keep: number): Promise<void>;
  markRead(tx: Tx, userId: string, ids: readonly string[], at: string): Promise<void>;
  markAllRead(tx: Tx, userId: string, upToPosition: number, at: string): Promise<void>;
  addParticipant(tx: Tx, threadId: string, participant: ThreadParticipant): Promise<void>;
  /** Up to `limit` of the thread's participants. */
  participantsOf(tx: Tx, threadId: string, limit: number): Promise<ThreadParticipant[]>;
  /** Erasure: the user's notifications and participations go. */
  removeUser(tx: Tx, userId: string): Promise<void>;
  /** A purged page: its notifications and its threads' participants go. */
  removePage(tx: Tx, pageId: string): Promise<void>;
  /** The folder was purged: notifications about it go. */
  removeFolder(tx: Tx, folderId: string): Promise<void>;
}
