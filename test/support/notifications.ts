// A user's notifications as GET /notifications answers them, checked against the API's own shape on the way in.
import { z } from "zod";
import { expect } from "vitest";
import { notificationResource } from "../../shared/notifications/notification.resource.ts";
import type { TestUser } from "./server.ts";

const notificationList = z.object({
  data: z.array(notificationResource),
  nextCursor: z.string().nullable(),
  unreadCount: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationList>;

/** `query`: the query string with its `?`, as the route takes it. */
export async function notificationsOf(user: TestUser, query = ""): Promise<NotificationList> {
  const reply = await user.get(`/notifications${query}`);
  expect(reply.status, reply.text).toBe(200);
  return notificationList.parse(reply.body);
}
