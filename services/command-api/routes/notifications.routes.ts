// POST /notifications/read: the caller marks their own notifications read, by id or all at once.
import { z } from "zod";
import type { App } from "../../../shared/http/create-app.ts";
import { MAX_IDS_PER_MARK } from "../../../shared/notifications/notification-inbox.decider.ts";
import { markNotificationsRead } from "../../../shared/notifications/mark-notifications-read.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";

const markReadBody = z.union([
  z.object({ ids: z.array(z.uuid()).min(1).max(MAX_IDS_PER_MARK) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);

export function notificationCommandRoutes(app: App, ports: CommandApiPorts): void {
  const answer = answerWrites(ports);
  app.post(
    "/notifications/read",
    {
      config: { access: { scope: "pages:read" as const } },
      schema: { body: markReadBody, response: writeResponses({ 204: z.null() }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor: { context } }) => {
        const { position } = await markNotificationsRead(
          { ...ports, checkpoint: () => ports.projection.current() },
          context,
          request.body,
        );
        return { position, status: 204 };
      }),
  );
}
