// Folder commands: create (at the root of the caller's workspace or inside a folder they may edit), rename or
// re-icon, move within the owner's tree, and delete to the trash (while empty, or with everything below it).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ownerOfNewItem } from "../../../shared/access/authorize.ts";
import { deleteFolder, editFolder, folderCommands, moveFolder } from "../../../shared/folders/folder.commands.ts";
import { deleteFolderTree } from "../../../shared/trash/folder-trash.ts";
import { folderResource } from "../../../shared/folders/folder.resource.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { locationOf } from "../../../shared/http/locations.ts";
import { folderIdSchema } from "../../../shared/kernel/ids.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { folderAnswer } from "../answers/folder.answer.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";
import { folderNameField } from "../../../shared/folders/folder.fields.ts";
import { iconField } from "../../../shared/kernel/text-fields.ts";

/** `recursive=true`: the folder and everything below it, in one request (without it, only an empty folder). */
const deleteFolderQuery = z.strictObject({ recursive: z.enum(["true", "false"]).optional() });

const createFolderBody = z.object({
  name: folderNameField,
  parentId: folderIdSchema.nullable().default(null),
  icon: iconField.nullable().default(null),
});

const updateFolderBody = z
  .strictObject({ name: folderNameField.optional(), icon: iconField.nullable().optional() })
  .refine((body) => body.name !== undefined || body.icon !== undefined, "send name and/or icon");
const moveBody = z.strictObject({ parentId: folderIdSchema.nullable() });
const folderParams = z.object({ folderId: folderIdSchema });
const write = { access: { scope: "pages:write" as const } };

export function folderCommandRoutes(app: App, ports: CommandApiPorts): void {
  const answer = answerWrites(ports);

  app.patch(
    "/folders/:folderId",
    {
      config: write,
      schema: { params: folderParams, body: updateFolderBody, response: writeResponses({ 200: folderResource }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { folderId } = request.params;
        const { name, icon } = request.body;
        const { position } = await editFolder.run(ports, actor, folderId, () => ({
          type: "UpdateFolder",
          folderId,
          name,
          icon,
        }));
        return { position, status: 200, answer: folderAnswer(folderId) };
      }),
  );

  app.post(
    "/folders/:folderId/move",
    {
      config: write,
      schema: { params: folderParams, body: moveBody, response: writeResponses({ 200: folderResource }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { folderId } = request.params;
        const { parentId } = request.body;
        const { position } = await moveFolder(ports, actor, folderId, parentId);
        return { position, status: 200, answer: folderAnswer(folderId, parentId) };
      }),
  );

  app.delete(
    "/folders/:folderId",
    {
      config: write,
      schema: { params: folderParams, querystring: deleteFolderQuery, response: writeResponses({ 204: z.null() }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { folderId } = request.params;
        const { position } =
          request.query.recursive === "true"
            ? await deleteFolderTree(ports, actor, folderId)
            : await deleteFolder(ports, actor, folderId);
        return { position, status: 204 };
      }),
  );

  app.post(
    "/folders",
    {
      config: { access: { scope: "pages:write" } },
      schema: { body: createFolderBody, response: writeResponses({ 201: folderResource }) },
    },
    async (request, reply) =>
      answer(request, reply, ({ actor, once }) =>
        once(async () => {
          const { name, parentId, icon } = request.body;
          const ownerId = await ownerOfNewItem(ports.views, actor.principal, parentId);
          const folderId = folderIdSchema.parse(randomUUID());
          const command = { type: "CreateFolder" as const, folderId, ownerId, parentId, name, icon };
          const { position } = await folderCommands.handle(ports.eventStore, folderId, command, actor.context);
          return {
            position,
            status: 201,
            location: locationOf.folder(folderId),
            answer: folderAnswer(folderId, parentId),
          };
        }),
      ),
  );
}
