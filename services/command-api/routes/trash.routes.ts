// POST /trash/{type}/{id}/restore: a deleted page or folder back where it was (or at its owner's root), answered
// with its record; a folder brings back what was deleted with it. DELETE /trash/{type}/{id}: its owner purges
// it at once, which erases its content (shared/trash/purge-item.ts).
import { z } from "zod";
import { folderResource } from "../../../shared/folders/folder.resource.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { pageResource } from "../../../shared/pages/page.resource.ts";
import { restoreFromTrash } from "../../../shared/trash/restore-from-trash.ts";
import { purgeFromTrash } from "../../../shared/trash/purge-item.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { folderAnswer } from "../answers/folder.answer.ts";
import { pageAnswer } from "../answers/page.answer.ts";
import { folderIdSchema, pageIdSchema } from "../../../shared/kernel/ids.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";

const restoreParams = z.object({ type: z.enum(["page", "folder"]), id: z.uuid() });

export function trashCommandRoutes(app: App, ports: CommandApiPorts): void {
  const answer = answerWrites(ports);
  app.delete(
    "/trash/:type/:id",
    {
      config: { access: { scope: "pages:write" } },
      schema: { params: restoreParams, response: writeResponses({ 204: z.null() }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { position } = await purgeFromTrash(
          { ...ports, ...ports.erasure },
          actor,
          request.params.type,
          request.params.id,
        );
        return { position, status: 204 };
      }),
  );

  app.post(
    "/trash/:type/:id/restore",
    {
      config: { access: { scope: "pages:write" } },
      schema: { params: restoreParams, response: writeResponses({ 200: z.union([pageResource, folderResource]) }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { type, id } = request.params;
        const { position } = await restoreFromTrash(ports, actor, type, id);
        const answered =
          type === "folder" ? folderAnswer(folderIdSchema.parse(id)) : pageAnswer(pageIdSchema.parse(id), "record");
        return { position, status: 200, answer: answered };
      }),
  );
}
