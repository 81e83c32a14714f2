// GET /changes: the live change feed as Server-Sent Events, written by hand on the raw response (no SSE plugin
// is installed). Each `change` event is one history entry the caller may see, each `notification` event one of the
// caller's own notifications as it is created or updated, in log order, the position as the event id; a client
// resumes with Last-Event-ID (or ?after=) without a gap or a repeat. Comment lines keep idle proxies open.
import type { FastifyReply } from "fastify";
import { z } from "zod";
import type { WriteSide } from "../../../shared/auth/write-side.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { notificationResource, toNotificationResource } from "../../../shared/notifications/notification.resource.ts";
import type { NotificationRecord } from "../../../shared/notifications/notifications.view.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import type { ChangeFeedHub, Feed } from "../../../shared/history/change-feed.ts";
import type { DescribedEntry } from "../../../shared/history/describe-history.ts";
import { positionOfToken, positionTokenSchema } from "../../../shared/position.ts";
import { historyItem, toHistoryItem } from "./history.routes.ts";

export interface ChangeFeedPorts {
  readonly hub: ChangeFeedHub;
  readonly writeSide: Pick<WriteSide, "headPosition">;
  readonly heartbeatMs: number;
}

/** The `data` of each `change` event: a history entry and the entity it changed (the reference's example is checked against it). */
export const changeEvent = historyItem.extend({
  entity: z.object({ kind: z.enum(["page", "folder", "thread", "group"]), id: z.string() }),
});

/** The `data` of each `notification` event: the item GET /notifications lists. */
export const notificationEvent = notificationResource;

const frameOf = (described: DescribedEntry): string => {
  const { entry } = described;
  const event: z.infer<typeof changeEvent> = {
    ...toHistoryItem(described),
    entity: { kind: entry.entityKind, id: entry.entityId },
  };
  const data = JSON.stringify(event);
  return `id: ${entry.position}\nevent: change\ndata: ${data}\n\n`;
};

const notificationFrameOf = (notification: NotificationRecord): string => {
  const data: z.infer<typeof notificationEvent> = toNotificationResource(notification);
  return `id: ${notification.position}\nevent: notification\ndata: ${JSON.stringify(data)}\n\n`;
};

/** Both kinds of event in log order; at one position the change comes first, and both before the next id. */
function framesInLogOrder(entries: readonly DescribedEntry[], notifications: readonly NotificationRecord[]): string {
  const frames: string[] = [];
  let next = 0;
  for (const described of entries) {
    for (; next < notifications.length; next += 1) {
      const notification = notifications[next];
      if (!notification || notification.position >= described.entry.position) break;
      frames.push(notificationFrameOf(notification));
    }
    frames.push(frameOf(described));
  }
  for (const notification of notifications.slice(next)) frames.push(notificationFrameOf(notification));
  return frames.join("");
}

/** Past this much unsent data a client is not keeping up: its feed ends, and it resumes with Last-Event-ID. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Open feeds, so a closing server ends them instead of waiting for clients that never hang up. */
const openResponses = new WeakMap<ChangeFeedHub, Set<FastifyReply["raw"]>>();

export function changeFeedRoutes(app: App, ports: ChangeFeedPorts): void {
  const responses = openResponses.get(ports.hub) ?? new Set<FastifyReply["raw"]>();
  openResponses.set(ports.hub, responses);
  app.addHook("preClose", async () => {
    for (const raw of responses) raw.end();
    await ports.hub.stop();
  });

  app.get(
    "/changes",
    {
      config: { access: { scope: "pages:read" } },
      schema: { querystring: z.object({ after: positionTokenSchema.optional() }), response: { "4xx": errorBody } },
    },
    async (request, reply) => {
      const lastEventId = request.headers["last-event-id"];
      const resumeFrom = typeof lastEventId === "string" && lastEventId !== "" ? lastEventId : request.query.after;
      let cursor: number;
      if (resumeFrom === undefined) {
        cursor = await ports.hub.head();
      } else {
        const parsed = positionTokenSchema.safeParse(resumeFrom);
        if (!parsed.success)
          throw new AppError("validation_failed", "Last-Event-ID: must be the id of an event of this feed");
        cursor = positionOfToken(parsed.data);
        if (cursor > (await ports.writeSide.headPosition()))
          throw new AppError("validation_failed", "Last-Event-ID: names a position no change has reached");
      }
      const raw = reply.raw;
      const principal = principalOf(request);
      const feed: Feed = {
        userId: principal.user.id,
        credential: { tokenId: principal.tokenId, expiresAt: principal.expiresAt },
        cursor,
        withNotifications: true,
        deliver: (entries, notifications) => {
          raw.write(framesInLogOrder(entries, notifications));
          if (raw.writableLength > MAX_BUFFERED_BYTES) {
            ports.hub.close(feed);
            raw.end();
          }
        },
        end: () => raw.end(),
      };
      ports.hub.admit(feed);
      reply.hijack();
      raw.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        // nginx passes the stream through as it comes instead of buffering it.
        "x-accel-buffering": "no",
        "x-request-id": request.id,
      });
      raw.write(`retry: 2000\n: feed open after ${cursor}\n\n`);
      responses.add(raw);
      const heartbeat = setInterval(() => raw.write(": heartbeat\n\n"), ports.heartbeatMs);
      raw.on("close", () => {
        clearInterval(heartbeat);
        responses.delete(raw);
        ports.hub.close(feed);
      });
      ports.hub.start(feed).catch((error: unknown) => {
        request.log.error({ event: "change_feed.failed", err: error });
        ports.hub.close(feed);
        raw.end();
      });
    },
  );
}
