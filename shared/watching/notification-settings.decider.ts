// A user's notification settings, in their own stream (notification-settings-<userId>): whether they watch what they
// write without asking, and how each kind of notification reaches them. Each change records the whole record as it
// now stands (NotificationSettingsChanged v2), so a replay needs no default beyond the first; v1, which carried
// autoWatch alone, is read with the default delivery (event-store/upcasters.ts).
import { z } from "zod";
import type { Decider } from "../kernel/decider.ts";
import { userIdSchema, type UserId } from "../kernel/ids.ts";
import {
  deliverySettingsSchema,
  notificationKindSchema,
  type DeliverySettings,
  type NotificationKind,
} from "../notifications/notification-kinds.ts";
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from "./notification-settings.view.ts";

export const notificationSettingsEventSchemas = [
  z.object({
    type: z.literal("NotificationSettingsChanged"),
    data: z.object({ userId: userIdSchema, autoWatch: z.boolean(), delivery: deliverySettingsSchema }),
  }),
] as const;
export type NotificationSettingsEvent = z.infer<(typeof notificationSettingsEventSchemas)[number]>;

/** Only what is given changes: a kind left out of `delivery` keeps its setting. */
export interface NotificationSettingsChange {
  readonly autoWatch?: boolean | undefined;
  readonly delivery?: Partial<DeliverySettings> | undefined;
}

export type NotificationSettingsCommand =
  | { type: "ChangeNotificationSettings"; userId: UserId; settings: NotificationSettingsChange }
  /** An unsubscribe link's: the kind's emails (or every kind's, digests included) go to the inbox only. */
  | { type: "StopEmails"; userId: UserId; scope: NotificationKind | "all" };

export const notificationSettingsStream = (userId: string): string => `notification-settings-${userId}`;

const KINDS = notificationKindSchema.options;

export const notificationSettingsDecider: Decider<
  NotificationSettingsCommand,
  NotificationSettings,
  NotificationSettingsEvent
> = {
  initialState: DEFAULT_NOTIFICATION_SETTINGS,
  decide(command, state) {
    if (command.type === "StopEmails") {
      const stopped = KINDS.filter((kind) => command.scope === "all" || command.scope === kind);
      return notificationSettingsDecider.decide(
        {
          type: "ChangeNotificationSettings",
          userId: command.userId,
          settings: { delivery: Object.fromEntries(stopped.map((kind) => [kind, "inbox" as const])) },
        },
        state,
      );
    }
    const asked = command.settings.delivery ?? {};
    const delivery = deliverySettingsSchema.parse(
      Object.fromEntries(KINDS.map((kind) => [kind, asked[kind] ?? state.delivery[kind]])),
    );
    const next: NotificationSettings = { autoWatch: command.settings.autoWatch ?? state.autoWatch, delivery };
    const unchanged =
      next.autoWatch === state.autoWatch && KINDS.every((kind) => delivery[kind] === state.delivery[kind]);
    if (unchanged) return [];
    return [{ type: "NotificationSettingsChanged", data: { userId: command.userId, ...next } }];
  },
  evolve(_state, event) {
    return { autoWatch: event.data.autoWatch, delivery: event.data.delivery };
  },
};
