// Notification settings in SQLite: one row per user who changed a default, the settings as one JSON record
// (so a new setting is a new field with its default, not a new column).
import type Database from "better-sqlite3";
import {
  notificationSettingsFrom,
  type NotificationSettings,
  type NotificationSettingsView,
  type NotificationSettingsWriter,
} from "../../watching/notification-settings.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS notification_settings (
  user_id TEXT PRIMARY KEY,
  settings TEXT NOT NULL
);`;
export const notificationSettingsModel: SqliteModel = { schema, tables: ["notification_settings"], queryIndexes: [] };

const parsed = (json: string | undefined): NotificationSettings =>
  notificationSettingsFrom(json === undefined ? undefined : JSON.parse(json));

function statementsOf(db: Database.Database) {
  return {
    get: db.prepare<[string], string>("SELECT settings FROM notification_settings WHERE user_id = ?").pluck(),
    put: db.prepare<[string, string]>("INSERT OR REPLACE INTO notification_settings (user_id, settings) VALUES (?, ?)"),
    remove: db.prepare<[string]>("DELETE FROM notification_settings WHERE user_id = ?"),
  };
}

export class SqliteNotificationSettingsWriter implements NotificationSettingsWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = statementsOf(db);
  }

  async get(_tx: SqliteBatch, userId: string): Promise<NotificationSettings> {
    return parsed(this.statements.get.get(userId));
  }

  async put(_tx: SqliteBatch, userId: string, settings: NotificationSettings): Promise<void> {
    this.statements.put.run(userId, JSON.stringify(settings));
  }

  async remove(_tx: SqliteBatch, userId: string): Promise<void> {
    this.statements.remove.run(userId);
  }
}

export class SqliteNotificationSettingsView implements NotificationSettingsView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = statementsOf(db);
  }

  async get(userId: string): Promise<NotificationSettings> {
    return parsed(this.statements.get.get(userId));
  }
}
