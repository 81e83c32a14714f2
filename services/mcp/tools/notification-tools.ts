// The caller's notifications (pages:read): list_notifications and mark_notifications_read, through the functions
// GET /notifications and POST /notifications/read call, so what the caller can no longer view is missing here
// as there, and an id that is not theirs answers not found.
import { z } from "zod";
import { AppError } from "../../../shared/errors/app-error.ts";
import { MAX_IDS_PER_MARK } from "../../../shared/notifications/notification-inbox.decider.ts";
import { listNotifications } from "../../../shared/notifications/list-notifications.ts";
import { markNotificationsRead } from "../../../shared/notifications/mark-notifications-read.ts";
import { notificationResource, toNotificationResource } from "../../../shared/notifications/notification.resource.ts";
import { decodeCursor, encodeCursor } from "../../../shared/read-store/pagination.ts";
import { value } from "../../command-api/answers/answer.ts";
import type { CommandApiPorts } from "../../command-api/command-api-ports.ts";
import { defineTool, IDEMPOTENT_CHANGE, READ_ONLY, type McpTool } from "../mcp-tool.ts";
import { toolWrites, writeOutput } from "../write-outcome.ts";

const markedOutput = writeOutput({});

export function notificationTools(ports: CommandApiPorts): McpTool[] {
  const writes = toolWrites(ports);
  return [
    defineTool({
      name: "list_notifications",
      title: "Your notifications",
      description:
        "What happened that concerns you (mentions, replies, shares, group memberships, changes of pages you watch), newest first, paged, with how many are unread (GET /notifications).",
      scope: "pages:read",
      budget: "read",
      input: z.object({
        unreadOnly: z.boolean().default(false).describe("true: unread notifications only"),
        limit: z.number().int().min(1).max(100).default(50).describe("how many items to answer at most"),
        cursor: z.string().min(1).max(200).optional().describe("nextCursor of the previous answer, to read on"),
      }),
      output: z.object({
        notifications: z.array(notificationResource),
        nextCursor: z.string().nullable(),
        unreadCount: z.number().int().nonnegative(),
      }),
      annotations: { ...READ_ONLY, title: "List notifications" },
      async run(args, caller) {
        const list = await listNotifications(ports.views, caller.principal.user.id, {
          before: decodeCursor(args.cursor),
          limit: args.limit,
          unreadOnly: args.unreadOnly,
        });
        return {
          notifications: list.data.map(toNotificationResource),
          nextCursor: list.nextBefore === null ? null : encodeCursor(list.nextBefore),
          unreadCount: list.unreadCount,
        };
      },
    }),
    defineTool({
      name: "mark_notifications_read",
      title: "Mark notifications read",
      description:
        "Marks your notifications read: those named by id (from list_notifications), or with all, every one so far (POST /notifications/read).",
      scope: "pages:read",
      budget: "write",
      input: z.object({
        ids: z.array(z.uuid()).min(1).max(MAX_IDS_PER_MARK).optional().describe("the notifications to mark"),
        all: z.literal(true).optional().describe("true: mark every notification so far"),
      }),
      output: markedOutput,
      annotations: { ...IDEMPOTENT_CHANGE, title: "Mark notifications read" },
      async run(args, caller) {
        const mark =
          args.all === true && args.ids === undefined
            ? { all: true as const }
            : args.all === undefined && args.ids !== undefined
              ? { ids: args.ids }
              : null;
        if (mark === null) throw new AppError("validation_failed", "send ids, or all: true");
        const actor = caller.actor();
        const { position } = await markNotificationsRead(
          { ...ports, checkpoint: () => ports.projection.current() },
          actor.context,
          mark,
        );
        return markedOutput.parse(await writes.settle(actor, position, { id: null, answer: value({}) }));
      },
    }),
  ];
}
