// POST /notifications/read: the caller marks their own notifications read, by id or all at once. POST
// /notifications/unsubscribe: a notification email's one-click unsubscribe (RFC 8058), authorised by its signed
// token alone (no cookie, no API token): the emails it names stop.
import { z } from "zod";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { CONSISTENCY_HEADER, tokenOfPosition } from "../../../shared/position.ts";
import { publicHeaders } from "../../../shared/share-links/public-page-html.ts";
import { unsubscribedDocument } from "../../../shared/notifications/unsubscribe-page.ts";
import { stopEmails } from "../../../shared/watching/watch.commands.ts";
import { MAX_IDS_PER_MARK } from "../../../shared/notifications/notification-inbox.decider.ts";
import { markNotificationsRead } from "../../../shared/notifications/mark-notifications-read.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";

const unsubscribeQuery = z.object({
  token: z.string().max(1000).meta({ description: "the signed token of the email's unsubscribe link" }),
});
const oneClickBody = z.object({
  "List-Unsubscribe": z.literal("One-Click").meta({ description: "RFC 8058's one-click body" }),
});

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

  // RFC 8058: the mail program POSTs `List-Unsubscribe=One-Click` as a form; parsed in this scope only.
  app.register(async (form: App) => {
    form.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 1024 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(typeof body === "string" ? body : body.toString("utf8"))));
      },
    );
    form.post(
      "/notifications/unsubscribe",
      {
        schema: {
          querystring: unsubscribeQuery,
          body: oneClickBody,
          consumes: ["application/x-www-form-urlencoded"],
          response: { 200: z.string().describe("an HTML page saying the emails stopped"), "4xx": errorBody },
        },
      },
      async (request, reply) => {
        const now = ports.clock();
        const unsubscribe = ports.unsubscribe?.verify(request.query.token, now) ?? null;
        if (unsubscribe === null || !(await ports.views.users.get(unsubscribe.userId)))
          throw new AppError("not_found", "no such unsubscribe link");
        const { position } = await stopEmails(ports, unsubscribe, {
          actorId: unsubscribe.userId,
          correlationId: request.id,
          now,
        });
        // Recorded either way; the settings read back at once once the read models reach it (bounded wait).
        if (position !== null) {
          await ports.projection.waitFor(position, ports.consistencyWaitMs);
          reply.header(CONSISTENCY_HEADER, tokenOfPosition(position));
        }
        return reply
          .code(200)
          .headers(publicHeaders(false))
          .type("text/html; charset=utf-8")
          .send(unsubscribedDocument(unsubscribe.scope));
      },
    );
  });
}
