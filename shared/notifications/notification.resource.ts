// A notification as the API shows it.
import { z } from "zod";
import { notificationKindSchema } from "./notification-kinds.ts";
import type { NotificationRecord } from "./notifications.view.ts";

export const notificationResource = z
  .object({
    id: z.uuid(),
    kind: notificationKindSchema,
    actorId: z.uuid(),
    pageId: z.uuid().optional(),
    folderId: z.uuid().optional(),
    threadId: z.uuid().optional(),
    groupId: z.uuid().optional().describe("The group a `group_added` notification is about"),
    createdAt: z.string(),
    readAt: z.string().nullable(),
    count: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("How many events this notification stands for, when more than one (coalesced within the hour)"),
    actorIds: z.array(z.uuid()).optional().describe("Who caused them, latest first, when more than one event"),
  })
  .meta({ id: "Notification", description: "Something that happened that concerns the caller" });
export type NotificationResource = z.infer<typeof notificationResource>;

export function toNotificationResource(n: NotificationRecord): NotificationResource {
  return {
    id: n.id,
    kind: n.kind,
    actorId: n.actorId,
    ...(n.pageId === null ? {} : { pageId: n.pageId }),
    ...(n.folderId === null ? {} : { folderId: n.folderId }),
    ...(n.threadId === null ? {} : { threadId: n.threadId }),
    ...(n.groupId === null ? {} : { groupId: n.groupId }),
    createdAt: n.createdAt,
    readAt: n.readAt,
    ...(n.count > 1 ? { count: n.count, actorIds: [...n.actorIds] } : {}),
  };
}
