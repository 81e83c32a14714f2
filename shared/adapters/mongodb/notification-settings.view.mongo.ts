// Notification settings in MongoDB: one document per user who changed a default, the settings as its fields.
import type { Document } from "mongodb";
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  notificationSettingsFrom,
  type NotificationSettings,
  type NotificationSettingsView,
  type NotificationSettingsWriter,
} from "../../watching/notification-settings.view.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

type SettingsDoc = Document & { _id: string };

export const notificationSettingsModel: MongoModel = { collections: ["notification_settings"], indexes: [] };

const settings = (ref: GenerationRef) => ref.current().collection<SettingsDoc>("notification_settings");

function parsed(doc: SettingsDoc | null): NotificationSettings {
  if (!doc) return DEFAULT_NOTIFICATION_SETTINGS;
  const { _id, ...fields } = doc;
  return notificationSettingsFrom(fields);
}

export class MongoNotificationSettingsWriter implements NotificationSettingsWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async get(tx: MongoBatch, userId: string): Promise<NotificationSettings> {
    return parsed(await settings(this.ref).findOne({ _id: userId }, tx.options));
  }

  async put(tx: MongoBatch, userId: string, value: NotificationSettings): Promise<void> {
    await settings(this.ref).replaceOne({ _id: userId }, { ...value }, { upsert: true, ...tx.options });
  }

  async remove(tx: MongoBatch, userId: string): Promise<void> {
    await settings(this.ref).deleteOne({ _id: userId }, tx.options);
  }
}

export class MongoNotificationSettingsView implements NotificationSettingsView {
  constructor(private readonly ref: GenerationRef) {}

  async get(userId: string): Promise<NotificationSettings> {
    return parsed(await settings(this.ref).findOne({ _id: userId }));
  }
}
