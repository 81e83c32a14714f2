// POST /trash/{type}/{id}/restore: a deleted page back where it was (or at its owner's root), answered with its record.
import { z } from "zod";
import { visiblePage } from "../../../shared/access/authorize.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { pageResource, toPageResource } from "../../../shared/pages/page.resource.ts";
import { restoreFromTrash } from "../../../shared/trash/trash.ts";
import type { CommandApiPorts } from "../command-api.ts";
import { actorOf, sendWrite, settleWrite, writeResponses } from "../write-answer.ts";

const restoreParams = z.object({ type: z.enum(["page", "folder"]), id: z.uuid() });

export function trashCommandRoutes(app: App, ports: CommandApiPorts): void {
  app.post(
    "/trash/:type/:id/restore",
    { config: { access: { scope: "pages:write" } }, schema: { params: restoreParams, response: writeResponses({ 200: pageResource }) } },
    async (request, reply) => {
      const actor = actorOf(request, ports.clock);
      const { type, id } = request.params;
      const { pageId, position } = await restoreFromTrash(ports, actor, type, id);
      const present = async () => {
        const { shown, permission } = await visiblePage(ports.views, actor.principal, pageId);
        return { body: toPageResource(shown, permission) };
      };
      return sendWrite(reply, await settleWrite(ports, position, { status: 200, id: pageId, present }));
    },
  );
}
