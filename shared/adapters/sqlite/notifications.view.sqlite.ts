import type Database from "better-sqlite3";
import { notificationKindSchema } from "../../notifications/notification-kinds.ts";
import type {
  NotificationRecord,
  NotificationsQuery,
  NotificationsView,
  NotificationsWriter,
  ThreadParticipant,
} from "../../notifications/notifications.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";
import { decodeIds, encodeIds } from "./id-list.ts";

const schema = `
CREATE TABLE IF NOT EXISTS notifications (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  actor_id TEXT NOT NULL,
  page_id TEXT,
  folder_id TEXT,
  thread_id TEXT,
  group_id TEXT,
  coalesce_key TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  read_at TEXT,
  count INTEGER NOT NULL,
  actor_ids TEXT NOT NULL,
  position INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS notifications_user ON notifications (user_id, position);
CREATE INDEX IF NOT EXISTS notifications_coalesce ON notifications (user_id, coalesce_key, position);
CREATE INDEX IF NOT EXISTS notifications_page ON notifications (page_id) WHERE page_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS notifications_folder ON notifications (folder_id) WHERE folder_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS notifications_position ON notifications (position);
CREATE TABLE IF NOT EXISTS notification_participants (
  thread_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  page_id TEXT NOT NULL,
  started INTEGER NOT NULL,
  PRIMARY KEY (thread_id, user_id)
);
CREATE INDEX IF NOT EXISTS notification_participants_user ON notification_participants (user_id);
CREATE INDEX IF NOT EXISTS notification_participants_page ON notification_participants (page_id);`;
export const notificationsModel: SqliteModel = {
  schema,
  tables: ["notifications", "notification_participants"],
  queryIndexes: ["notifications_position"],
};

type Row = {
  id: string;
  user_id: string;
  kind: string;
  actor_id: string;
  page_id: string | null;
  folder_id: string | null;
  thread_id: string | null;
  group_id: string | null;
  coalesce_key: string;
  created_at: string;
  updated_at: string;
  read_at: string | null;
  count: number;
  actor_ids: string;
  position: number;
};

const toRecord = (row: Row): NotificationRecord => ({
  id: row.id,
  userId: row.user_id,
  kind: notificationKindSchema.parse(row.kind),
  actorId: row.actor_id,
  pageId: row.page_id,
  folderId: row.folder_id,
  threadId: row.thread_id,
  groupId: row.group_id,
  coalesceKey: row.coalesce_key,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  readAt: row.read_at,
  count: row.count,
  actorIds: decodeIds(row.actor_ids),
  position: row.position,
});

const BEFORE_ALL = Number.MAX_SAFE_INTEGER;

export class SqliteNotificationsWriter implements NotificationsWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      latest: db.prepare<[string, string], Row>(
        "SELECT * FROM notifications WHERE user_id = ? AND coalesce_key = ? ORDER BY position DESC LIMIT 1",
      ),
      put: db.prepare(
        `INSERT OR REPLACE INTO notifications (id, user_id, kind, actor_id, page_id, folder_id, thread_id, group_id, coalesce_key, created_at, updated_at, read_at, count, actor_ids, position)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      // The rows past the newest `keep`, found through the (user_id, position) index.
      trim: db.prepare<[string, string, number]>(
        "DELETE FROM notifications WHERE user_id = ? AND position < (SELECT position FROM notifications WHERE user_id = ? ORDER BY position DESC LIMIT 1 OFFSET CAST(? AS INTEGER))",
      ),
      markRead: db.prepare<[string, string, string]>(
        "UPDATE notifications SET read_at = ? WHERE user_id = ? AND id = ? AND read_at IS NULL",
      ),
      markAll: db.prepare<[string, string, number]>(
        "UPDATE notifications SET read_at = ? WHERE user_id = ? AND position <= ? AND read_at IS NULL",
      ),
      addParticipant: db.prepare(
        "INSERT OR IGNORE INTO notification_participants (thread_id, user_id, page_id, started) VALUES (?, ?, ?, ?)",
      ),
      participants: db.prepare<[string, number], { user_id: string; page_id: string; started: number }>(
        "SELECT user_id, page_id, started FROM notification_participants WHERE thread_id = ? ORDER BY started DESC LIMIT CAST(? AS INTEGER)",
      ),
      removeNotifications: db.prepare("DELETE FROM notifications WHERE user_id = ?"),
      removeParticipations: db.prepare("DELETE FROM notification_participants WHERE user_id = ?"),
      removePageNotifications: db.prepare("DELETE FROM notifications WHERE page_id = ?"),
      removeFolderNotifications: db.prepare("DELETE FROM notifications WHERE folder_id = ?"),
      removePageParticipants: db.prepare("DELETE FROM notification_participants WHERE page_id = ?"),
    };
  }

  async latestOf(_tx: SqliteBatch, userId: string, coalesceKey: string): Promise<NotificationRecord | null> {
    const row = this.statements.latest.get(userId, coalesceKey);
    return row ? toRecord(row) : null;
  }

  async put(_tx: SqliteBatch, n: NotificationRecord, keep: number): Promise<void> {
    this.statements.put.run(
      n.id,
      n.userId,
      n.kind,
      n.actorId,
      n.pageId,
      n.folderId,
      n.threadId,
      n.groupId,
      n.coalesceKey,
      n.createdAt,
      n.updatedAt,
      n.readAt,
      n.count,
      encodeIds(n.actorIds),
      n.position,
    );
    this.statements.trim.run(n.userId, n.userId, keep - 1);
  }

  async markRead(_tx: SqliteBatch, userId: string, ids: readonly string[], at: string): Promise<void> {
    for (const id of ids) this.statements.markRead.run(at, userId, id);
  }

  async markAllRead(_tx: SqliteBatch, userId: string, upToPosition: number, at: string): Promise<void> {
    this.statements.markAll.run(at, userId, upToPosition);
  }

  async addParticipant(_tx: SqliteBatch, threadId: string, p: ThreadParticipant): Promise<void> {
    this.statements.addParticipant.run(threadId, p.userId, p.pageId, p.started ? 1 : 0);
  }

  async participantsOf(_tx: SqliteBatch, threadId: string, limit: number): Promise<ThreadParticipant[]> {
    return this.statements.participants
      .all(threadId, limit)
      .map((row) => ({ userId: row.user_id, pageId: row.page_id, started: row.started === 1 }));
  }

  async removeUser(_tx: SqliteBatch, userId: string): Promise<void> {
    this.statements.removeNotifications.run(userId);
    this.statements.removeParticipations.run(userId);
  }

  async removeFolder(_tx: SqliteBatch, folderId: string): Promise<void> {
    this.statements.removeFolderNotifications.run(folderId);
  }

  async removePage(_tx: SqliteBatch, pageId: string): Promise<void> {
    this.statements.removePageNotifications.run(pageId);
    this.statements.removePageParticipants.run(pageId);
  }
}

export class SqliteNotificationsView implements NotificationsView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      getMany: db.prepare<[string, string], Row>(
        "SELECT * FROM notifications WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))",
      ),
      list: db.prepare<[string, number, number], Row>(
        "SELECT * FROM notifications WHERE user_id = ? AND position < ? ORDER BY position DESC LIMIT CAST(? AS INTEGER)",
      ),
      listUnread: db.prepare<[string, number, number], Row>(
        "SELECT * FROM notifications WHERE user_id = ? AND position < ? AND read_at IS NULL ORDER BY position DESC LIMIT CAST(? AS INTEGER)",
      ),
      producedBetween: db.prepare<[number, number, number, number, string, number], Row>(
        "SELECT * FROM notifications WHERE position > ? AND position <= ? AND (position > ? OR (position = ? AND id > ?)) ORDER BY position, id LIMIT CAST(? AS INTEGER)",
      ),
      changedBetween: db.prepare<[string, number, number, number], Row>(
        "SELECT * FROM notifications WHERE user_id = ? AND position > ? AND position <= ? ORDER BY position, id LIMIT CAST(? AS INTEGER)",
      ),
      usersWithUnread: db
        .prepare<[string, number], string>(
          "SELECT DISTINCT user_id FROM notifications WHERE user_id > ? AND read_at IS NULL ORDER BY user_id LIMIT CAST(? AS INTEGER)",
        )
        .pluck(),
      producedAt: db.prepare<[number, number], Row>(
        "SELECT * FROM notifications WHERE position = ? LIMIT CAST(? AS INTEGER)",
      ),
      unreadSince: db.prepare<[string, number, number], Row>(
        "SELECT * FROM notifications WHERE user_id = ? AND position > ? AND read_at IS NULL ORDER BY position ASC LIMIT CAST(? AS INTEGER)",
      ),
    };
  }

  async list(query: NotificationsQuery): Promise<NotificationRecord[]> {
    const statement = query.unreadOnly ? this.statements.listUnread : this.statements.list;
    return statement.all(query.userId, query.before ?? BEFORE_ALL, query.limit).map(toRecord);
  }

  async getMany(userId: string, ids: readonly string[]): Promise<NotificationRecord[]> {
    if (ids.length === 0) return [];
    return this.statements.getMany.all(userId, JSON.stringify(ids)).map(toRecord);
  }

  async unread(userId: string, limit: number): Promise<NotificationRecord[]> {
    return this.statements.listUnread.all(userId, BEFORE_ALL, limit).map(toRecord);
  }

  async producedBetween(
    after: number,
    upTo: number,
    from: { readonly position: number; readonly id: string } | null,
    limit: number,
  ): Promise<NotificationRecord[]> {
    const position = from?.position ?? after;
    return this.statements.producedBetween.all(after, upTo, position, position, from?.id ?? "", limit).map(toRecord);
  }

  async changedBetween(userId: string, after: number, upTo: number, limit: number): Promise<NotificationRecord[]> {
    return this.statements.changedBetween.all(userId, after, upTo, limit).map(toRecord);
  }

  async usersWithUnread(afterUserId: string | null, limit: number): Promise<string[]> {
    return this.statements.usersWithUnread.all(afterUserId ?? "", limit);
  }

  async producedAt(position: number, limit: number): Promise<NotificationRecord[]> {
    return this.statements.producedAt.all(position, limit).map(toRecord);
  }

  async unreadSince(userId: string, afterPosition: number, limit: number): Promise<NotificationRecord[]> {
    return this.statements.unreadSince.all(userId, afterPosition, limit).map(toRecord);
  }
}
