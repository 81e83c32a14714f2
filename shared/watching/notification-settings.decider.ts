// A user's notification settings, in their own stream (notification-settings-<userId>): each change records the
// whole record as it now stands, so a replay needs no default beyond the first.
import { z } from "zod";
import type { Decider } from "../kernel/decider.ts";
import { userIdSchema, type UserId } from "../kernel/ids.ts";
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from "./notification-settings.view.ts";

export const notificationSettingsEventSchemas = [
  z.object({
    type: z.literal("NotificationSettingsChanged"),
    data: z.object({ userId: userIdSchema, autoWatch: z.boolean() }),
  }),
] as const;
export type NotificationSettingsEvent = z.infer<(typeof notificationSettingsEventSchemas)[number]>;

export type NotificationSettingsCommand = {
  type: "ChangeNotificationSettings";
  userId: UserId;
  settings: Partial<NotificationSettings>;
};

export const notificationSettingsStream = (userId: string): string => `notification-settings-${userId}`;

export const notificationSettingsDecider: Decider<
  NotificationSettingsCommand,
  NotificationSettings,
  NotificationSettingsEvent
> = {
  initialState: DEFAULT_NOTIFICATION_SETTINGS,
  decide(command, state) {
    const next = {
      ...state,
      ...Object.fromEntries(Object.entries(command.settings).filter(([, value]) => value !== undefined)),
    };
    if (next.autoWatch === state.autoWatch) return [];
    return [{ type: "NotificationSettingsChanged", data: { userId: command.userId, autoWatch: next.autoWatch } }];
  },
  evolve(state, event) {
    return { ...state, autoWatch: event.data.autoWatch };
  },
};
