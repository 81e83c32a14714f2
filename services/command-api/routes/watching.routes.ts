// Watching: PUT and DELETE /pages/{pageId}/watch and /folders/{folderId}/watch (the caller's own watch; view
// permission, 404 otherwise), and the caller's notification settings (PUT /me/notification-settings).
import { z } from "zod";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "../../../shared/http/create-app.ts";
import { folderIdSchema, pageIdSchema } from "../../../shared/kernel/ids.ts";
import { changeNotificationSettings, setWatch } from "../../../shared/watching/watch.commands.ts";
import {
  notificationSettingsBody,
  notificationSettingsResource,
  watchResource,
} from "../../../shared/watching/watch.resource.ts";
import type { WatchedKind } from "../../../shared/watching/watches.view.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { value } from "../answers/answer.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";

const write = { access: { scope: "pages:write" as const } };
const pageParams = z.object({ pageId: pageIdSchema });
const folderParams = z.object({ folderId: folderIdSchema });

export function watchingCommandRoutes(app: App, ports: CommandApiPorts): void {
  const answer = answerWrites(ports);
  /** The caller's watch of the entity becomes `watching`; the answer says what it now is. */
  const watch =
    (kind: WatchedKind, watching: boolean) => async (request: FastifyRequest, reply: FastifyReply, entityId: string) =>
      answer(request, reply, async ({ actor }) => {
        const { position } = await setWatch(ports, actor, kind, entityId, watching);
        return { position, status: 200, answer: value({ watching }) };
      });
  const pageRoute = { config: write, schema: { params: pageParams, response: writeResponses({ 200: watchResource }) } };
  const folderRoute = {
    config: write,
    schema: { params: folderParams, response: writeResponses({ 200: watchResource }) },
  };

  app.put("/pages/:pageId/watch", pageRoute, async (request, reply) =>
    watch("page", true)(request, reply, request.params.pageId),
  );
  app.delete("/pages/:pageId/watch", pageRoute, async (request, reply) =>
    watch("page", false)(request, reply, request.params.pageId),
  );
  app.put("/folders/:folderId/watch", folderRoute, async (request, reply) =>
    watch("folder", true)(request, reply, request.params.folderId),
  );
  app.delete("/folders/:folderId/watch", folderRoute, async (request, reply) =>
    watch("folder", false)(request, reply, request.params.folderId),
  );

  app.put(
    "/me/notification-settings",
    {
      config: write,
      schema: { body: notificationSettingsBody, response: writeResponses({ 200: notificationSettingsResource }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { position, settings } = await changeNotificationSettings(ports, actor, request.body);
        return { position, status: 200, answer: value(settings) };
      }),
  );
}
