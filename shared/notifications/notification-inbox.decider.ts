// A user's notification inbox on the write side: read marks (NotificationsRead) on `notification-reads-<userId>`.
// Notifications themselves are derived data, projected from the events they are about; only what the user does to
// them is recorded. How they reach the user is part of the user's settings (watching/notification-settings.decider.ts).
import { z } from "zod";
import type { Decider } from "../kernel/decider.ts";
import { userIdSchema, type UserId } from "../kernel/ids.ts";

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
] as const;
export type NotificationInboxEvent = z.infer<(typeof notificationInboxEventSchemas)[number]>;

export type NotificationInboxCommand =
  | { type: "MarkNotificationsRead"; userId: UserId; ids: readonly string[] }
  | { type: "MarkAllNotificationsRead"; userId: UserId; upToPosition: number };

/** Read marks need no history: a per-user stream appended without reading it back, so its length costs nothing. */
export type NotificationInboxState = Record<string, never>;

export const notificationReadsStream = (userId: string): string => `notification-reads-${userId}`;

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
    }
  },
  evolve(state) {
    return state;
  },
};
