// GET /notifications: the caller's own notifications, newest change first, with how many are unread; those about
// what the caller can no longer view are left out (shared/notifications/list-notifications.ts).
import { z } from "zod";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, paginationQuery } from "../../../shared/http/schemas.ts";
import { listNotifications } from "../../../shared/notifications/list-notifications.ts";
import { notificationResource, toNotificationResource } from "../../../shared/notifications/notification.resource.ts";
import { decodeCursor, encodeCursor } from "../../../shared/read-store/pagination.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

const notificationsQuery = paginationQuery.extend({
  unread: z.enum(["true", "false"]).optional().describe("true: unread notifications only"),
});
const notificationList = z
  .object({
    data: z.array(notificationResource),
    nextCursor: z.string().nullable(),
    unreadCount: z.number().int().nonnegative(),
  })
  .meta({ id: "NotificationList", description: "A page of the caller's notifications and how many are unread" });

export function notificationQueryRoutes(app: App, views: ReadModels): void {
  app.get(
    "/notifications",
    {
      config: { access: { scope: "pages:read" as const } },
      schema: { querystring: notificationsQuery, response: { 200: notificationList, "4xx": errorBody } },
    },
    async (request) => {
      const { cursor, limit, unread } = request.query;
      const list = await listNotifications(views, principalOf(request).user.id, {
        before: decodeCursor(cursor),
        limit,
        unreadOnly: unread === "true",
      });
      return {
        data: list.data.map(toNotificationResource),
        nextCursor: list.nextBefore === null ? null : encodeCursor(list.nextBefore),
        unreadCount: list.unreadCount,
      };
    },
  );
}
