// What a notification can be about, and how each kind reaches its reader: in the inbox only, by email at once,
// or in a daily digest. Settings are per kind; a kind a user never set takes its default.
import { z } from "zod";

export const notificationKindSchema = z.enum([
  "mentioned",
  "replied",
  "thread_resolved",
  "thread_reopened",
  "shared",
  "workspace_added",
  "group_added",
  "watched_changed",
]);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

export const deliverySchema = z.enum(["inbox", "email", "digest"]);
type Delivery = z.infer<typeof deliverySchema>;

/** Every kind's delivery: total, so a rule per kind cannot be forgotten. */
export type DeliverySettings = { readonly [Kind in NotificationKind]: Delivery };

export const deliverySettingsSchema = z.object({
  mentioned: deliverySchema,
  replied: deliverySchema,
  thread_resolved: deliverySchema,
  thread_reopened: deliverySchema,
  shared: deliverySchema,
  workspace_added: deliverySchema,
  group_added: deliverySchema,
  watched_changed: deliverySchema,
}) satisfies z.ZodType<DeliverySettings>;

/** What a user who never chose gets: what concerns them directly by email, the rest in the daily digest. */
export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  mentioned: "email",
  replied: "email",
  thread_resolved: "inbox",
  thread_reopened: "inbox",
  shared: "email",
  workspace_added: "email",
  group_added: "email",
  watched_changed: "digest",
};

/** Built once: building a zod schema compiles it, which costs far more than a parse. */
const storedDeliverySchema = deliverySettingsSchema.partial();

/** Delivery settings as stored: a kind added since they were written takes its default. */
export function deliverySettingsFrom(stored: unknown): DeliverySettings {
  return { ...DEFAULT_DELIVERY_SETTINGS, ...storedDeliverySchema.parse(stored ?? {}) };
}
