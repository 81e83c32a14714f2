import { z } from "zod";
import { notificationKindSchema } from "../../notifications/notification-kinds.ts";
import type {
  NotificationRecord,
  NotificationsQuery,
  NotificationsView,
  NotificationsWriter,
  ThreadParticipant,
} from "../../notifications/notifications.view.ts";
import { recordOf, type GenerationRef, type MongoBatch, type MongoModel } from "./mongo-batch.ts";

const notificationSchema = z.object({
  _id: z.string(),
  userId: z.string(),
  kind: notificationKindSchema,
  actorId: z.string(),
  pageId: z.string().nullable(),
  folderId: z.string().nullable(),
  threadId: z.string().nullable(),
  groupId: z.string().nullable(),
  coalesceKey: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  readAt: z.string().nullable(),
  count: z.number().int(),
  actorIds: z.array(z.string()),
  position: z.number().int(),
});
type NotificationDoc = z.infer<typeof notificationSchema>;
type ParticipantDoc = { _id: string; threadId: string; userId: string; pageId: string; started: boolean };

export const notificationsModel: MongoModel = {
  collections: ["notifications", "notification_participants"],
  indexes: [
    {
      collection: "notifications",
      name: "notifications_user",
      keys: { userId: 1, position: -1 },
      serves:
        "GET /notifications: the caller's notifications, newest change first; the per-user cap; a change feed's notifications by position range",
    },
    {
      collection: "notifications",
      name: "notifications_coalesce",
      keys: { userId: 1, coalesceKey: 1, position: -1 },
      serves: "projector: a recipient's latest notification of one subject, to coalesce into",
    },
    {
      collection: "notifications",
      name: "notifications_page",
      keys: { pageId: 1 },
      partial: { pageId: { $type: "string" } },
      serves: "projector: a purged page's notifications",
    },
    {
      collection: "notifications",
      name: "notifications_folder",
      keys: { folderId: 1 },
      partial: { folderId: { $type: "string" } },
      serves: "projector: a purged folder's notifications",
    },
    {
      collection: "notifications",
      name: "notifications_position",
      keys: { position: 1 },
      serves: "notifier: the notifications one event produced, to email them",
    },
    {
      collection: "notification_participants",
      name: "notification_participants_thread",
      keys: { threadId: 1, started: -1 },
      serves: "projector: whom a reply notifies, the thread's starter first",
    },
    {
      collection: "notification_participants",
      name: "notification_participants_user",
      keys: { userId: 1 },
      serves: "projector: an erased user's participations",
    },
    {
      collection: "notification_participants",
      name: "notification_participants_page",
      keys: { pageId: 1 },
      serves: "projector: a purged page's participants",
    },
  ],
};

const notifications = (ref: GenerationRef) => ref.current().collection<NotificationDoc>("notifications");
const participants = (ref: GenerationRef) => ref.current().collection<ParticipantDoc>("notification_participants");
const toRecord = (doc: unknown): NotificationRecord => recordOf(notificationSchema, doc);
const participantId = (threadId: string, userId: string) => `${threadId}:${userId}`;

export class MongoNotificationsWriter implements NotificationsWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async latestOf(tx: MongoBatch, userId: string, coalesceKey: string): Promise<NotificationRecord | null> {
    const doc = await notifications(this.ref).findOne(
      { userId, coalesceKey },
      { sort: { position: -1 }, ...tx.options },
    );
    return doc ? toRecord(doc) : null;
  }

  async put(tx: MongoBatch, notification: NotificationRecord, keep: number): Promise<void> {
    const { id, ...rest } = notification;
    await notifications(this.ref).replaceOne(
      { _id: id },
      { ...rest, actorIds: [...rest.actorIds] },
      { upsert: true, ...tx.options },
    );
    // The newest `keep` stay: the one at that rank bounds the rest, found through the (userId, position) index.
    const [oldestKept] = await notifications(this.ref)
      .find({ userId: notification.userId }, { projection: { position: 1 }, ...tx.options })
      .sort({ position: -1 })
      .skip(keep - 1)
      .limit(1)
      .toArray();
    if (oldestKept !== undefined)
      await notifications(this.ref).deleteMany(
        { userId: notification.userId, position: { $lt: oldestKept.position } },
        tx.options,
      );
  }

  async markRead(tx: MongoBatch, userId: string, ids: readonly string[], at: string): Promise<void> {
    await notifications(this.ref).updateMany(
      { userId, _id: { $in: [...ids] }, readAt: null },
      { $set: { readAt: at } },
      tx.options,
    );
  }

  async markAllRead(tx: MongoBatch, userId: string, upToPosition: number, at: string): Promise<void> {
    await notifications(this.ref).updateMany(
      { userId, position: { $lte: upToPosition }, readAt: null },
      { $set: { readAt: at } },
      tx.options,
    );
  }

  async addParticipant(tx: MongoBatch, threadId: string, p: ThreadParticipant): Promise<void> {
    await participants(this.ref).updateOne(
      { _id: participantId(threadId, p.userId) },
      { $setOnInsert: { threadId, userId: p.userId, pageId: p.pageId, started: p.started } },
      { upsert: true, ...tx.options },
    );
  }

  async participantsOf(tx: MongoBatch, threadId: string, limit: number): Promise<ThreadParticipant[]> {
    const docs = await participants(this.ref)
      .find({ threadId }, tx.options)
      .sort({ started: -1 })
      .limit(limit)
      .toArray();
    return docs.map((doc) => ({ userId: doc.userId, pageId: doc.pageId, started: doc.started }));
  }

  async removeUser(tx: MongoBatch, userId: string): Promise<void> {
    await notifications(this.ref).deleteMany({ userId }, tx.options);
    await participants(this.ref).deleteMany({ userId }, tx.options);
  }

  async removeFolder(tx: MongoBatch, folderId: string): Promise<void> {
    await notifications(this.ref).deleteMany({ folderId }, tx.options);
  }

  async removePage(tx: MongoBatch, pageId: string): Promise<void> {
    await notifications(this.ref).deleteMany({ pageId }, tx.options);
    await participants(this.ref).deleteMany({ pageId }, tx.options);
  }
}

export class MongoNotificationsView implements NotificationsView {
  constructor(private readonly ref: GenerationRef) {}

  async list(query: NotificationsQuery): Promise<NotificationRecord[]> {
    const filter = {
      userId: query.userId,
      ...(query.before === null ? {} : { position: { $lt: query.before } }),
      ...(query.unreadOnly ? { readAt: null } : {}),
    };
    const docs = await notifications(this.ref).find(filter).sort({ position: -1 }).limit(query.limit).toArray();
    return docs.map(toRecord);
  }

  async getMany(userId: string, ids: readonly string[]): Promise<NotificationRecord[]> {
    if (ids.length === 0) return [];
    const docs = await notifications(this.ref)
      .find({ userId, _id: { $in: [...ids] } })
      .toArray();
    return docs.map(toRecord);
  }

  async unread(userId: string, limit: number): Promise<NotificationRecord[]> {
    const docs = await notifications(this.ref)
      .find({ userId, readAt: null })
      .sort({ position: -1 })
      .limit(limit)
      .toArray();
    return docs.map(toRecord);
  }

  async producedBetween(
    after: number,
    upTo: number,
    from: { readonly position: number; readonly id: string } | null,
    limit: number,
  ): Promise<NotificationRecord[]> {
    const range = { position: { $gt: after, $lte: upTo } };
    const filter =
      from === null
        ? range
        : {
            ...range,
            $or: [{ position: { $gt: from.position } }, { position: from.position, _id: { $gt: from.id } }],
          };
    const docs = await notifications(this.ref).find(filter).sort({ position: 1, _id: 1 }).limit(limit).toArray();
    return docs.map(toRecord);
  }

  async changedBetween(userId: string, after: number, upTo: number, limit: number): Promise<NotificationRecord[]> {
    const docs = await notifications(this.ref)
      .find({ userId, position: { $gt: after, $lte: upTo } })
      .sort({ position: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toRecord);
  }

  async usersWithUnread(afterUserId: string | null, limit: number): Promise<string[]> {
    const groups = await notifications(this.ref)
      .aggregate<{ _id: string }>([
        { $match: { readAt: null, ...(afterUserId === null ? {} : { userId: { $gt: afterUserId } }) } },
        { $group: { _id: "$userId" } },
        { $sort: { _id: 1 } },
        { $limit: limit },
      ])
      .toArray();
    return groups.map((group) => group._id);
  }

  async producedAt(position: number, limit: number): Promise<NotificationRecord[]> {
    const docs = await notifications(this.ref).find({ position }).limit(limit).toArray();
    return docs.map(toRecord);
  }

  async unreadSince(userId: string, afterPosition: number, limit: number): Promise<NotificationRecord[]> {
    const docs = await notifications(this.ref)
      .find({ userId, position: { $gt: afterPosition }, readAt: null })
      .sort({ position: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toRecord);
  }
}
