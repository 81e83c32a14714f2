// Invitation commands: the three resend routes (by id, by entity and address, by workspace address) and
// cancelling by id. Each finds the invitation, then the invitation decider applies the rules.
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Dependencies } from "../../../shared/app/dependencies.ts";
import { awaitProjection } from "../../../shared/commands/commit.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { guard, principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { invitationIdSchema } from "../../../shared/kernel/ids.ts";
import { entityTypeSchema } from "../../../shared/sharing/entity-access.decider.ts";
import { invitationResource, toInvitationResource } from "../../../shared/sharing/invitation.resource.ts";
import type { InvitationRecord } from "../../../shared/sharing/invitations.view.ts";
import { cancelInvitation, resendInvitation } from "../../../shared/sharing/manage-invitation.ts";
import { visibleEntity } from "../../../shared/sharing/shared-entity.ts";
import { contextOf } from "../context-of-request.ts";
import { emailField } from "./fields.ts";

const resentReply = z.object({ invitation: invitationResource, message: z.string() });
const resendResponse = { 200: resentReply, "4xx": errorBody };

export function invitationCommandRoutes(app: App, deps: Dependencies): void {
  async function resend(request: FastifyRequest, reply: FastifyReply, invitation: InvitationRecord | null) {
    const position = await resendInvitation(deps, contextOf(deps, request), invitation);
    await awaitProjection(deps, position, reply);
    const resent = invitation ? await deps.readStore.invitations.get(invitation.id) : null;
    if (!resent) throw new AppError("internal", "the invitation was not recorded");
    // The resend succeeded, so the caller manages this invitation.
    return { invitation: toInvitationResource(resent, true), message: `the invitation to ${resent.email} is queued for delivery again` };
  }

  app.post(
    "/shares/invitations/:invitationId/resend",
    { onRequest: guard(deps, { scope: "pages:write" }), schema: { params: z.object({ invitationId: invitationIdSchema }), response: resendResponse } },
    async (request, reply) => resend(request, reply, await deps.readStore.invitations.get(request.params.invitationId)),
  );

  app.post(
    "/shares/entity/:entityType/:entityId/invitations/by-email/:email/resend",
    {
      onRequest: guard(deps, { scope: "pages:write" }),
      schema: { params: z.object({ entityType: entityTypeSchema, entityId: z.uuid(), email: emailField }), response: resendResponse },
    },
    async (request, reply) => {
      const { entityType, entityId, email } = request.params;
      await visibleEntity(deps.readStore, principalOf(request), entityType, entityId);
      return resend(request, reply, await deps.readStore.invitations.latestFor(entityType, entityId, email));
    },
  );

  app.post(
    "/shares/workspace/invitations/by-email/:email/resend",
    { onRequest: guard(deps, { scope: "pages:write" }), schema: { params: z.object({ email: emailField }), response: resendResponse } },
    async (request, reply) => {
      const ownerId = principalOf(request).user.id;
      return resend(request, reply, await deps.readStore.invitations.latestFor("workspace", ownerId, request.params.email));
    },
  );

  app.delete(
    "/shares/invitations/:invitationId",
    {
      onRequest: guard(deps, { scope: "pages:write" }),
      schema: { params: z.object({ invitationId: invitationIdSchema }), response: { 204: z.null(), "4xx": errorBody } },
    },
    async (request, reply) => {
      const invitation = await deps.readStore.invitations.get(request.params.invitationId);
      const position = await cancelInvitation(deps, contextOf(deps, request), invitation);
      await awaitProjection(deps, position, reply);
      return reply.code(204).send(null);
    },
  );
}
