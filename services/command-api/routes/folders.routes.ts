// POST /folders: a folder at the root of the caller's workspace, or inside a folder they may edit.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ownerOfNewItem, visibleFolder } from "../../../shared/access/authorize.ts";
import type { Dependencies } from "../../../shared/app/dependencies.ts";
import { awaitProjection } from "../../../shared/commands/commit.ts";
import { runCommand } from "../../../shared/commands/run-command.ts";
import { eventGuard } from "../../../shared/events.ts";
import { folderDecider, folderEventSchemas, folderStream, type FolderEvent } from "../../../shared/folders/folder.decider.ts";
import { folderResource, toFolderResource } from "../../../shared/folders/folder.resource.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { guard, principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { folderIdSchema } from "../../../shared/kernel/ids.ts";
import { contextOf } from "../context-of-request.ts";
import { iconField } from "./fields.ts";

const isFolderEvent = eventGuard<FolderEvent>(folderEventSchemas);

const createFolderBody = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((name) => !name.includes("/"), "must not contain '/', which separates folders in folderPath"),
  parentId: folderIdSchema.nullable().default(null),
  icon: iconField.nullable().default(null),
});

export function folderCommandRoutes(app: App, deps: Dependencies): void {
  app.post(
    "/folders",
    {
      onRequest: guard(deps, { scope: "pages:write" }),
      schema: { body: createFolderBody, response: { 201: folderResource, "4xx": errorBody } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { name, parentId, icon } = request.body;
      const ownerId = await ownerOfNewItem(deps.readStore, principal, parentId);
      const folderId = folderIdSchema.parse(randomUUID());
      const context = contextOf(deps, request);
      const result = await runCommand(deps.eventStore, folderStream(folderId), folderDecider, isFolderEvent, {
        type: "CreateFolder",
        folderId,
        ownerId,
        parentId,
        name,
        icon,
      }, context);
      await awaitProjection(deps, result.position, reply);
      const { folder, permission } = await visibleFolder(deps.readStore, principal, folderId);
      return reply.code(201).send(toFolderResource(folder, permission));
    },
  );
}
