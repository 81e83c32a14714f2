// POST /groups, PATCH and DELETE /groups/{id}, POST /groups/{id}/members (an account joins, 200; an address
// without one is invited, 202) and DELETE /groups/{id}/members/{userId}. The workspace owner and its admins
// manage groups; a member may leave; anyone else is told the group does not exist.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AppError } from "../../../shared/errors/app-error.ts";
import { addGroupMember } from "../../../shared/groups/add-group-member.ts";
import { groupCommands } from "../../../shared/groups/group.commands.ts";
import { groupResource } from "../../../shared/groups/group.resource.ts";
import { visibleGroup } from "../../../shared/groups/visible-group.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { locationOf } from "../../../shared/http/locations.ts";
import { groupIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import { invitationResource } from "../../../shared/sharing/invitation.resource.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { value } from "../answers/answer.ts";
import { groupAnswer } from "../answers/group.answer.ts";
import { invitationAnswer } from "../answers/invitation.answer.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";
import { nameField } from "../../../shared/kernel/text-fields.ts";
import { emailField } from "./fields.ts";

const groupNameField = nameField({ max: 200 });
const groupParams = z.object({ groupId: groupIdSchema });
/** Both answers of POST /groups/{id}/members: a member added (`invitation` null), or an address invited. */
const groupMemberReply = z
  .object({
    ok: z.boolean(),
    message: z.string(),
    memberId: z.uuid().nullable(),
    invitation: invitationResource.nullable(),
  })
  .meta({
    id: "GroupMemberAnswer",
    description: "A member added (`invitation` null), or an invitation queued for an address without an account",
  });

export function groupCommandRoutes(app: App, ports: CommandApiPorts): void {
  const config = { access: { scope: "pages:write" as const } };
  const answer = answerWrites(ports);

  app.post(
    "/groups",
    { config, schema: { body: z.object({ name: groupNameField }), response: writeResponses({ 201: groupResource }) } },
    async (request, reply) =>
      answer(request, reply, ({ actor: { context }, once }) =>
        once(async () => {
          // A group belongs to the caller's own workspace.
          const groupId = groupIdSchema.parse(randomUUID());
          const actor = { id: context.actorId, manages: true };
          const { position, state } = await groupCommands.handle(
            ports.eventStore,
            groupId,
            { type: "CreateGroup", groupId, ownerId: context.actorId, name: request.body.name, actor },
            context,
          );
          const now = context.now.toISOString();
          return {
            position,
            status: 201,
            location: locationOf.group(groupId),
            answer: groupAnswer(groupId, { state, createdAt: now, updatedAt: now, memberCount: 0 }),
          };
        }),
      ),
  );

  app.patch(
    "/groups/:groupId",
    {
      config,
      schema: {
        params: groupParams,
        body: z.object({ name: groupNameField }),
        response: writeResponses({ 200: groupResource }),
      },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor: { context } }) => {
        const { groupId } = request.params;
        const { group, manages } = await visibleGroup(ports.views, context.actorId, groupId);
        const command = {
          type: "RenameGroup" as const,
          groupId,
          name: request.body.name,
          actor: { id: context.actorId, manages },
        };
        const { position, state } = await groupCommands.handle(ports.eventStore, groupId, command, context);
        const { createdAt, memberCount } = group;
        const held = { state, createdAt, updatedAt: context.now.toISOString(), memberCount };
        return { position, status: 200, answer: groupAnswer(groupId, held) };
      }),
  );

  app.delete(
    "/groups/:groupId",
    { config, schema: { params: groupParams, response: writeResponses({ 204: z.null() }) } },
    async (request, reply) =>
      answer(request, reply, async ({ actor: { context } }) => {
        const { groupId } = request.params;
        const { manages } = await visibleGroup(ports.views, context.actorId, groupId);
        const { position } = await groupCommands.handle(
          ports.eventStore,
          groupId,
          { type: "DeleteGroup", groupId, actor: { id: context.actorId, manages } },
          context,
        );
        return { position, status: 204 };
      }),
  );

  app.post(
    "/groups/:groupId/members",
    {
      config,
      schema: {
        params: groupParams,
        body: z.object({ email: emailField }),
        response: writeResponses({ 200: groupMemberReply, 202: groupMemberReply }),
      },
    },
    async (request, reply) =>
      answer(request, reply, ({ actor: { context }, once }) =>
        once(async () => {
          const { groupId } = request.params;
          const { manages } = await visibleGroup(ports.views, context.actorId, groupId);
          if (!manages) throw new AppError("forbidden", "only the workspace owner and its admins manage groups");
          const outcome = await addGroupMember(ports, context, { groupId, email: request.body.email, manages });
          if (outcome.kind === "added") {
            const body = {
              ok: true,
              message: `${outcome.user.name} is a member of this group`,
              memberId: outcome.user.id,
              invitation: null,
            };
            return { position: outcome.position, status: 200, answer: value(body) };
          }
          const message = `${request.body.email} has no account yet; an invitation is queued`;
          return {
            position: outcome.position,
            status: 202,
            location: locationOf.invitation(outcome.invitationId),
            answer: invitationAnswer(outcome.invitationId).map((invitation) => ({
              ok: true,
              message,
              memberId: null,
              invitation,
            })),
          };
        }),
      ),
  );

  app.delete(
    "/groups/:groupId/members/:userId",
    {
      config,
      schema: { params: groupParams.extend({ userId: userIdSchema }), response: writeResponses({ 204: z.null() }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor: { context } }) => {
        const { groupId, userId } = request.params;
        const { manages } = await visibleGroup(ports.views, context.actorId, groupId);
        const command = {
          type: "RemoveGroupMember" as const,
          groupId,
          memberId: userId,
          actor: { id: context.actorId, manages },
        };
        const { position } = await groupCommands.handle(ports.eventStore, groupId, command, context);
        return { position, status: 204 };
      }),
  );
}
