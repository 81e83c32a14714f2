// GET /notifications: the caller's own notifications, newest change first, with how many are unread; those about
// what the caller can no longer view are left out (shared/notifications/list-notifications.ts). GET
// /notifications/unsubscribe: the page a notification email's unsubscribe link opens in a browser, whose button
// POSTs the one-click form to the command API.
import { z } from "zod";
import { AppError } from "../../../shared/errors/app-error.ts";
import { unsubscribeDocument } from "../../../shared/notifications/unsubscribe-page.ts";
import type { UnsubscribeTokens } from "../../../shared/notifications/unsubscribe-token.ts";
import { publicHeaders } from "../../../shared/share-links/public-page-html.ts";
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

const unsubscribeQuery = z.object({
  token: z.string().max(1000).meta({ description: "the signed token of the email's unsubscribe link" }),
});

export function notificationQueryRoutes(
  app: App,
  views: ReadModels,
  ports: { readonly unsubscribe: UnsubscribeTokens | null; readonly clock: () => Date },
): void {
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

  app.get(
    "/notifications/unsubscribe",
    {
      schema: {
        querystring: unsubscribeQuery,
        response: {
          200: z.string().describe("an HTML page with a button that unsubscribes (a POST of the one-click form)"),
          "4xx": errorBody,
        },
      },
    },
    async (request, reply) => {
      const unsubscribe = ports.unsubscribe?.verify(request.query.token, ports.clock()) ?? null;
      if (unsubscribe === null || !(await views.users.get(unsubscribe.userId)))
        throw new AppError("not_found", "no such unsubscribe link");
      return reply
        .headers(publicHeaders(false))
        .type("text/html; charset=utf-8")
        .send(unsubscribeDocument(request.query.token, unsubscribe.scope));
    },
  );
}
