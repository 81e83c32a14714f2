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

/**
 * The automatic watch asks for the actor's settings at every page event: each batch keeps the settings it read
 * or wrote, per user, so a replay reads (and validates) a user's row once per batch rather than once per event.
 * The held settings belong to the batch handle: a rolled-back batch takes them with it.
 */
export class SqliteNotificationSettingsWriter implements NotificationSettingsWriter<SqliteBatch> {
  private readonly statements;
  private readonly heldByBatch = new WeakMap<SqliteBatch, Map<string, NotificationSettings>>();

  constructor(db: Database.Database) {
    this.statements = statementsOf(db);
  }

  async get(tx: SqliteBatch, userId: string): Promise<NotificationSettings> {
    const held = this.heldOf(tx);
    const known = held.get(userId);
    if (known) return known;
    const settings = parsed(this.statements.get.get(userId));
    held.set(userId, settings);
    return settings;
  }

  async put(tx: SqliteBatch, userId: string, settings: NotificationSettings): Promise<void> {
    this.statements.put.run(userId, JSON.stringify(settings));
    this.heldOf(tx).delete(userId);
  }

  async remove(tx: SqliteBatch, userId: string): Promise<void> {
    this.statements.remove.run(userId);
    this.heldOf(tx).delete(userId);
  }

  private heldOf(tx: SqliteBatch): Map<string, NotificationSettings> {
    let held = this.heldByBatch.get(tx);
    if (!held) {
      held = new Map();
      this.heldByBatch.set(tx, held);
    }
    return held;
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
