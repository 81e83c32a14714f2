// POST /folders: a folder at the root of the caller's workspace, or inside a folder they may edit.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ownerOfNewItem, visibleFolder } from "../../../shared/access/authorize.ts";
import { folderCommands } from "../../../shared/folders/folder.commands.ts";
import { folderResource, toFolderResource } from "../../../shared/folders/folder.resource.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { folderIdSchema } from "../../../shared/kernel/ids.ts";
import type { CommandApiPorts } from "../command-api.ts";
import { actorOf, sendWrite, settleWrite, writeResponses } from "../write-answer.ts";
import { idempotentWrite } from "../idempotent-write.ts";
import { iconField, visibleTextField } from "./fields.ts";

const createFolderBody = z.object({
  name: visibleTextField({ max: 200 }).refine((name) => !name.includes("/"), "must not contain '/', which separates folders in folderPath"),
  parentId: folderIdSchema.nullable().default(null),
  icon: iconField.nullable().default(null),
});

export function folderCommandRoutes(app: App, ports: CommandApiPorts): void {
  app.post(
    "/folders",
    { config: { access: { scope: "pages:write" } }, schema: { body: createFolderBody, response: writeResponses({ 201: folderResource }) } },
    async (request, reply) => {
      const actor = actorOf(request, ports.clock);
      const { name, parentId, icon } = request.body;
      const answer = await idempotentWrite(ports, request, actor, async () => {
        const ownerId = await ownerOfNewItem(ports.views, actor.principal, parentId);
        const folderId = folderIdSchema.parse(randomUUID());
        const command = { type: "CreateFolder" as const, folderId, ownerId, parentId, name, icon };
        const { position } = await folderCommands.handle(ports.eventStore, folderId, command, actor.context);
        const present = async () => {
          const { folder, permission } = await visibleFolder(ports.views, actor.principal, folderId);
          return { body: toFolderResource(folder, permission) };
        };
        return settleWrite(ports, position, { status: 201, id: folderId, present });
      });
      return sendWrite(reply, answer);
    },
  );
}
