// Sharing commands: grant or revoke access to a page or folder by email, and add or remove members of the
// caller's workspace. An address without an account gets an invitation instead (202).
import { z } from "zod";
import type { App } from "../../../shared/http/create-app.ts";
import { locationOf } from "../../../shared/http/locations.ts";
import { groupIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import { changeGroupRole, shareWithGroup } from "../../../shared/groups/share-with-group.ts";
import { grantablePermissionSchema, workspaceRoleSchema } from "../../../shared/kernel/permissions.ts";
import { addWorkspaceMember } from "../../../shared/sharing/add-workspace-member.ts";
import { entityTypeSchema } from "../../../shared/sharing/entity-access.decider.ts";
import { invitationResource } from "../../../shared/sharing/invitation.resource.ts";
import { shareEntity } from "../../../shared/sharing/share-entity.ts";
import { visibleEntity } from "../../../shared/sharing/shared-entity.ts";
import { entityAccessCommands, workspaceCommands } from "../../../shared/sharing/sharing.commands.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { value } from "../answers/answer.ts";
import { invitationAnswer } from "../answers/invitation.answer.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";
import { emailField } from "./fields.ts";

const entityParams = z.object({ entityType: entityTypeSchema, entityId: z.uuid() });
/** Both answers of a grant: access given to an account (200, `invitation` null), or an address invited (202). */
const grantReply = z.object({ ok: z.boolean(), message: z.string(), invitation: invitationResource.nullable() }).meta({
  id: "GrantAnswer",
  description: "Access given (`invitation` null), or an invitation queued for an address without an account",
});
/** Both answers of POST /shares/workspace/members carry the same five fields; those that do not apply are null. */
const memberReply = grantReply.extend({ memberId: z.uuid().nullable(), name: z.string().nullable() }).meta({
  id: "MemberAnswer",
  description: "A member added (`invitation` null), or an invitation queued for an address without an account",
});

export function shareCommandRoutes(app: App, ports: CommandApiPorts): void {
  const config = { access: { scope: "pages:write" as const } };
  const answer = answerWrites(ports);

  app.post(
    "/shares/entity/:entityType/:entityId/grants",
    {
      config,
      schema: {
        params: entityParams,
        // A person by address, or a group by id: a group's grant reaches every member, and only them.
        body: z.union([
          z.object({ email: emailField, permission: grantablePermissionSchema }),
          z.object({ groupId: groupIdSchema, permission: grantablePermissionSchema }),
        ]),
        response: writeResponses({ 200: grantReply, 202: grantReply }),
      },
    },
    async (request, reply) =>
      answer(request, reply, ({ actor, once }) =>
        once(async () => {
          const { entityType, entityId } = request.params;
          const { body } = request;
          const { permission } = body;
          const { entity, permission: actorPermission } = await visibleEntity(
            ports.views,
            actor.principal,
            entityType,
            entityId,
          );
          if ("groupId" in body) {
            const { position } = await shareWithGroup(ports, actor.context, {
              entity,
              actorPermission,
              groupId: body.groupId,
              permission,
            });
            const message = `the group has ${permission} access to this ${entityType}`;
            return { position, status: 200, answer: value({ ok: true, message, invitation: null }) };
          }
          const { email } = body;
          const outcome = await shareEntity(ports, actor.context, { entity, actorPermission, email, permission });
          if (outcome.kind === "granted") {
            const message = `${outcome.user.email} has ${permission} access to this ${entityType}`;
            return { position: outcome.position, status: 200, answer: value({ ok: true, message, invitation: null }) };
          }
          const message = `${email} has no account yet; an invitation is queued`;
          return {
            position: outcome.position,
            status: 202,
            location: locationOf.invitation(outcome.invitationId),
            answer: invitationAnswer(outcome.invitationId).map((invitation) => ({ ok: true, message, invitation })),
          };
        }),
      ),
  );

  app.delete(
    "/shares/entity/:entityType/:entityId/grants/:userId",
    {
      config,
      schema: { params: entityParams.extend({ userId: userIdSchema }), response: writeResponses({ 204: z.null() }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { entityType, entityId, userId } = request.params;
        const { entity, permission } = await visibleEntity(ports.views, actor.principal, entityType, entityId);
        const command = {
          type: "RevokeAccess" as const,
          entity,
          userId,
          actor: { id: actor.context.actorId, permission },
        };
        const { position } = await entityAccessCommands.handle(ports.eventStore, entity, command, actor.context);
        return { position, status: 204 };
      }),
  );

  app.delete(
    "/shares/entity/:entityType/:entityId/groups/:groupId",
    {
      config,
      schema: { params: entityParams.extend({ groupId: groupIdSchema }), response: writeResponses({ 204: z.null() }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { entityType, entityId, groupId } = request.params;
        const { entity, permission } = await visibleEntity(ports.views, actor.principal, entityType, entityId);
        const command = {
          type: "RevokeGroupAccess" as const,
          entity,
          groupId,
          actor: { id: actor.context.actorId, permission },
        };
        const { position } = await entityAccessCommands.handle(ports.eventStore, entity, command, actor.context);
        return { position, status: 204 };
      }),
  );

  app.post(
    "/shares/workspace/members",
    {
      config,
      schema: {
        // A person by address, or a group of the workspace by id: every member of the group holds the role.
        body: z.union([
          z.object({ email: emailField, role: workspaceRoleSchema }),
          z.object({ groupId: groupIdSchema, role: workspaceRoleSchema }),
        ]),
        response: writeResponses({ 200: memberReply, 202: memberReply }),
      },
    },
    async (request, reply) =>
      answer(request, reply, ({ actor, once }) =>
        once(async () => {
          const { body } = request;
          const { role } = body;
          if ("groupId" in body) {
            const { position } = await changeGroupRole(ports, actor.context, body.groupId, role);
            const answered = {
              ok: true,
              memberId: null,
              name: null,
              invitation: null,
              message: `the group's members are ${role}s of your workspace`,
            };
            return { position, status: 200, answer: value(answered) };
          }
          const { email } = body;
          const outcome = await addWorkspaceMember(ports, actor.context, { email, role });
          if (outcome.kind === "added") {
            const { user } = outcome;
            const body = {
              ok: true,
              memberId: user.id,
              name: user.name,
              invitation: null,
              message: `${user.name} is a ${role} of your workspace`,
            };
            return { position: outcome.position, status: 200, answer: value(body) };
          }
          const message = `${email} has no account yet; an invitation is queued`;
          return {
            position: outcome.position,
            status: 202,
            location: locationOf.invitation(outcome.invitationId),
            answer: invitationAnswer(outcome.invitationId).map((invitation) => ({
              ok: true,
              memberId: null,
              name: null,
              invitation,
              message,
            })),
          };
        }),
      ),
  );

  app.delete(
    "/shares/workspace/groups/:groupId",
    { config, schema: { params: z.object({ groupId: groupIdSchema }), response: writeResponses({ 204: z.null() }) } },
    async (request, reply) =>
      answer(request, reply, async ({ actor: { context } }) => {
        const { position } = await changeGroupRole(ports, context, request.params.groupId, null);
        return { position, status: 204 };
      }),
  );

  app.delete(
    "/shares/workspace/members/:memberId",
    { config, schema: { params: z.object({ memberId: userIdSchema }), response: writeResponses({ 204: z.null() }) } },
    async (request, reply) =>
      answer(request, reply, async ({ actor: { context } }) => {
        const command = {
          type: "RemoveMember" as const,
          ownerId: context.actorId,
          memberId: request.params.memberId,
          actorId: context.actorId,
        };
        const { position } = await workspaceCommands.handle(ports.eventStore, context.actorId, command, context);
        return { position, status: 204 };
      }),
  );
}
