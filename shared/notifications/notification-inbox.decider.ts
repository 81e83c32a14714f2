// A user's notification inbox on the write side: read marks (NotificationsRead) on `notification-reads-<userId>`
// and settings (NotificationDeliveryChanged) on `notification-delivery-<userId>`. Notifications themselves are
// derived data, projected from the events they are about; only what the user does to them is recorded.
import { z } from "zod";
import type { Decider } from "../kernel/decider.ts";
import { userIdSchema, type UserId } from "../kernel/ids.ts";
import { notificationSettingsSchema, type NotificationSettings } from "./notification-kinds.ts";

/** The most ids one mark names. */
export const MAX_IDS_PER_MARK = 100;

export const notificationInboxEventSchemas = [
  /** `ids` read, or with `upToPosition` every notification whose latest change is at or before it. */
  z.object({
    type: z.literal("NotificationsRead"),
    data: z.object({
      userId: userIdSchema,
      ids: z.array(z.uuid()).max(MAX_IDS_PER_MARK),
      upToPosition: z.number().int().nonnegative().nullable(),
    }),
  }),
  z.object({
    type: z.literal("NotificationDeliveryChanged"),
    data: z.object({ userId: userIdSchema, settings: notificationSettingsSchema }),
  }),
] as const;
export type NotificationInboxEvent = z.infer<(typeof notificationInboxEventSchemas)[number]>;

export type NotificationInboxCommand =
  | { type: "MarkNotificationsRead"; userId: UserId; ids: readonly string[] }
  | { type: "MarkAllNotificationsRead"; userId: UserId; upToPosition: number }
  | {
      type: "ChangeNotificationSettings";
      userId: UserId;
      settings: NotificationSettings;
      current: NotificationSettings;
    };

/** Read marks need no history: a per-user stream appended without reading it back, so its length costs nothing. */
export type NotificationInboxState = Record<string, never>;

export const notificationReadsStream = (userId: string): string => `notification-reads-${userId}`;

const sameSettings = (a: NotificationSettings, b: NotificationSettings): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

export const notificationInboxDecider: Decider<
  NotificationInboxCommand,
  NotificationInboxState,
  NotificationInboxEvent
> = {
  initialState: {},
  decide(command) {
    switch (command.type) {
      case "MarkNotificationsRead":
        return command.ids.length === 0
          ? []
          : [
              {
                type: "NotificationsRead",
                data: { userId: command.userId, ids: [...command.ids], upToPosition: null },
              },
            ];
      case "MarkAllNotificationsRead":
        return [
          { type: "NotificationsRead", data: { userId: command.userId, ids: [], upToPosition: command.upToPosition } },
        ];
      case "ChangeNotificationSettings":
        return sameSettings(command.settings, command.current)
          ? []
          : [{ type: "NotificationDeliveryChanged", data: { userId: command.userId, settings: command.settings } }];
    }
  },
  evolve(state) {
    return state;
  },
};
