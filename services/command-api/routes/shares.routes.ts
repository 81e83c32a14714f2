// Sharing commands: grant or revoke access to a page or folder by email, and add or remove members of the
// caller's workspace. An address without an account gets an invitation instead (202).
import { z } from "zod";
import type { Dependencies } from "../../../shared/app/dependencies.ts";
import { awaitProjection } from "../../../shared/commands/commit.ts";
import { runCommand } from "../../../shared/commands/run-command.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { eventGuard } from "../../../shared/events.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { guard, principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { userIdSchema } from "../../../shared/kernel/ids.ts";
import { grantablePermissionSchema, workspaceRoleSchema } from "../../../shared/kernel/permissions.ts";
import { addWorkspaceMember } from "../../../shared/sharing/add-workspace-member.ts";
import { accessStream, entityAccessDecider, entityAccessEventSchemas, entityTypeSchema, type EntityAccessEvent } from "../../../shared/sharing/entity-access.decider.ts";
import { invitationResource, toInvitationResource } from "../../../shared/sharing/invitation.resource.ts";
import { shareEntity } from "../../../shared/sharing/share-entity.ts";
import { visibleEntity } from "../../../shared/sharing/shared-entity.ts";
import { workspaceDecider, workspaceEventSchemas, workspaceStream, type WorkspaceEvent } from "../../../shared/sharing/workspace.decider.ts";
import { contextOf } from "../context-of-request.ts";
import { emailField } from "./fields.ts";

const isEntityAccessEvent = eventGuard<EntityAccessEvent>(entityAccessEventSchemas);
const isWorkspaceEvent = eventGuard<WorkspaceEvent>(workspaceEventSchemas);

const entityParams = z.object({ entityType: entityTypeSchema, entityId: z.uuid() });
const grantedReply = z.object({ ok: z.boolean(), message: z.string() });
const invitedReply = grantedReply.extend({ invitation: invitationResource });
/** The spec gives both answers of POST /shares/workspace/members the same five fields; the one that does not apply is null. */
const memberReply = grantedReply.extend({ memberId: z.uuid().nullable(), name: z.string().nullable(), invitation: invitationResource.nullable() });

async function recordedInvitation(deps: Dependencies, invitationId: string) {
  const invitation = await deps.readStore.invitations.get(invitationId);
  if (!invitation) throw new AppError("internal", "the invitation was not recorded");
  // Whoever just invited may manage the invitation: the same rules decide both.
  return toInvitationResource(invitation, true);
}

export function shareCommandRoutes(app: App, deps: Dependencies): void {
  app.post(
    "/shares/entity/:entityType/:entityId/grants",
    {
      onRequest: guard(deps, { scope: "pages:write" }),
      schema: {
        params: entityParams,
        body: z.object({ email: emailField, permission: grantablePermissionSchema }),
        response: { 200: grantedReply, 202: invitedReply, "4xx": errorBody },
      },
    },
    async (request, reply) => {
      const { entityType, entityId } = request.params;
      const { email, permission } = request.body;
      const { entity, permission: actorPermission } = await visibleEntity(deps.readStore, principalOf(request), entityType, entityId);
      const outcome = await shareEntity(deps, contextOf(deps, request), { entity, actorPermission, email, permission });
      await awaitProjection(deps, outcome.position, reply);
      if (outcome.kind === "granted") {
        return reply.code(200).send({ ok: true, message: `${outcome.user.email} has ${permission} access to this ${entityType}` });
      }
      const invitation = await recordedInvitation(deps, outcome.invitationId);
      return reply.code(202).send({ ok: true, message: `${email} has no account yet; an invitation is queued`, invitation });
    },
  );

  app.delete(
    "/shares/entity/:entityType/:entityId/grants/:userId",
    {
      onRequest: guard(deps, { scope: "pages:write" }),
      schema: { params: entityParams.extend({ userId: userIdSchema }), response: { 204: z.null(), "4xx": errorBody } },
    },
    async (request, reply) => {
      const { entityType, entityId, userId } = request.params;
      const { entity, permission } = await visibleEntity(deps.readStore, principalOf(request), entityType, entityId);
      const context = contextOf(deps, request);
      const result = await runCommand(deps.eventStore, accessStream(entity), entityAccessDecider, isEntityAccessEvent, {
        type: "RevokeAccess",
        entity,
        userId,
        actor: { id: context.actorId, permission },
      }, context);
      await awaitProjection(deps, result.position, reply);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/shares/workspace/members",
    {
      onRequest: guard(deps, { scope: "pages:write" }),
      schema: {
        body: z.object({ email: emailField, role: workspaceRoleSchema }),
        response: { 200: memberReply, 202: memberReply, "4xx": errorBody },
      },
    },
    async (request, reply) => {
      const { email, role } = request.body;
      const outcome = await addWorkspaceMember(deps, contextOf(deps, request), { email, role });
      await awaitProjection(deps, outcome.position, reply);
      if (outcome.kind === "added") {
        const { user } = outcome;
        return reply.code(200).send({ ok: true, memberId: user.id, name: user.name, invitation: null, message: `${user.name} is a ${role} of your workspace` });
      }
      const invitation = await recordedInvitation(deps, outcome.invitationId);
      return reply.code(202).send({ ok: true, memberId: null, name: null, invitation, message: `${email} has no account yet; an invitation is queued` });
    },
  );

  app.delete(
    "/shares/workspace/members/:memberId",
    {
      onRequest: guard(deps, { scope: "pages:write" }),
      schema: { params: z.object({ memberId: userIdSchema }), response: { 204: z.null(), "4xx": errorBody } },
    },
    async (request, reply) => {
      const context = contextOf(deps, request);
      const result = await runCommand(deps.eventStore, workspaceStream(context.actorId), workspaceDecider, isWorkspaceEvent, {
        type: "RemoveMember",
        ownerId: context.actorId,
        memberId: request.params.memberId,
        actorId: context.actorId,
      }, context);
      await awaitProjection(deps, result.position, reply);
      return reply.code(204).send(null);
    },
  );
}
