// Read model of each user's notification settings: one record per user who changed a default. Stored whole, so
// a new setting (per-kind delivery preferences) is a new field of the record with its default, not a new table.
import { z } from "zod";

export const notificationSettingsSchema = z.object({
  /** Authors and commenters of a page watch it without asking. */
  autoWatch: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = { autoWatch: true };

export interface NotificationSettingsView {
  /** The user's settings, defaults where they changed nothing. */
  get(userId: string): Promise<NotificationSettings>;
}

export interface NotificationSettingsWriter<Tx> {
  get(tx: Tx, userId: string): Promise<NotificationSettings>;
  put(tx: Tx, userId: string, settings: NotificationSettings): Promise<void>;
  /** The account was erased: its settings go. */
  remove(tx: Tx, userId: string): Promise<void>;
}
