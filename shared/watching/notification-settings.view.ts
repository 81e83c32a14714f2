// Read model of each user's notification settings, one record per user who changed a default: whether they watch
// what they write without asking, and how each kind of notification reaches them (inbox, email, digest). Stored
// whole, so a new setting is a new field of the record with its default, not a new table.
import { z } from "zod";
import {
  DEFAULT_DELIVERY_SETTINGS,
  deliverySettingsFrom,
  deliverySettingsSchema,
} from "../notifications/notification-kinds.ts";

const notificationSettingsSchema = z.object({
  /** Authors and commenters of a page watch it without asking. */
  autoWatch: z.boolean(),
  /** How each kind of notification reaches the user. */
  delivery: deliverySettingsSchema,
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  autoWatch: true,
  delivery: DEFAULT_DELIVERY_SETTINGS,
};

/** A record as stored, built once (building a zod schema compiles it, which costs far more than a parse). */
const storedSettingsSchema = z.object({ autoWatch: z.boolean().optional(), delivery: z.unknown().optional() });

/** A record as stored: a field (or a kind) added since it was written takes its default. */
export function notificationSettingsFrom(stored: unknown): NotificationSettings {
  const record = storedSettingsSchema.parse(stored ?? {});
  return notificationSettingsSchema.parse({
    autoWatch: record.autoWatch ?? DEFAULT_NOTIFICATION_SETTINGS.autoWatch,
    delivery: deliverySettingsFrom(record.delivery),
  });
}

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
