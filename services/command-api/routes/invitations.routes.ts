// Invitation commands: the three resend routes (by id, by entity and address, by workspace address) and
// cancelling by id. Each finds the invitation, then the invitation decider applies the rules.
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { invitationIdSchema } from "../../../shared/kernel/ids.ts";
import { entityTypeSchema } from "../../../shared/sharing/entity-access.decider.ts";
import { invitationResource, toInvitationResource } from "../../../shared/sharing/invitation.resource.ts";
import type { InvitationRecord } from "../../../shared/sharing/invitations.view.ts";
import { cancelInvitation, resendInvitation } from "../../../shared/sharing/manage-invitation.ts";
import { visibleEntity } from "../../../shared/sharing/shared-entity.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { assembleInvitation } from "../assembled/invitation.assembled.ts";
import { actorOf, sendWrite, settleWrite, writeResponses } from "../write-answer.ts";
import { emailField } from "./fields.ts";

const resentReply = z
  .object({ invitation: invitationResource, message: z.string() })
  .meta({ id: "ResentInvitation", description: "The invitation queued for delivery again" });
const resendResponse = writeResponses({ 200: resentReply });

export function invitationCommandRoutes(app: App, ports: CommandApiPorts): void {
  const config = { access: { scope: "pages:write" as const } };

  async function resend(request: FastifyRequest, reply: FastifyReply, invitation: InvitationRecord | null) {
    const { context } = actorOf(request, ports.clock);
    const position = await resendInvitation(ports, context, invitation);
    const present = async () => {
      const resent = invitation ? await ports.views.invitations.get(invitation.id) : null;
      if (!resent) throw new AppError("internal", "the invitation was not recorded");
      // The resend succeeded, so the caller manages this invitation.
      return { body: { invitation: toInvitationResource(resent, true), message: `the invitation to ${resent.email} is queued for delivery again` } };
    };
    const assemble = async () => {
      if (!invitation) throw new AppError("internal", "the invitation was not recorded");
      const resent = await assembleInvitation(ports, invitationIdSchema.parse(invitation.id), context.now);
      return { body: { invitation: resent, message: `the invitation to ${resent.email} is queued for delivery again` } };
    };
    return sendWrite(reply, await settleWrite(ports, position, { status: 200, present, assemble }));
  }

  app.post(
    "/shares/invitations/:invitationId/resend",
    { config, schema: { params: z.object({ invitationId: invitationIdSchema }), response: resendResponse } },
    async (request, reply) => resend(request, reply, await ports.views.invitations.get(request.params.invitationId)),
  );

  app.post(
    "/shares/entity/:entityType/:entityId/invitations/by-email/:email/resend",
    { config, schema: { params: z.object({ entityType: entityTypeSchema, entityId: z.uuid(), email: emailField }), response: resendResponse } },
    async (request, reply) => {
      const { entityType, entityId, email } = request.params;
      await visibleEntity(ports.views, actorOf(request, ports.clock).principal, entityType, entityId);
      return resend(request, reply, await ports.views.invitations.latestFor(entityType, entityId, email));
    },
  );

  app.post(
    "/shares/workspace/invitations/by-email/:email/resend",
    { config, schema: { params: z.object({ email: emailField }), response: resendResponse } },
    async (request, reply) => {
      const ownerId = actorOf(request, ports.clock).principal.user.id;
      return resend(request, reply, await ports.views.invitations.latestFor("workspace", ownerId, request.params.email));
    },
  );

  app.delete(
    "/shares/invitations/:invitationId",
    { config, schema: { params: z.object({ invitationId: invitationIdSchema }), response: writeResponses({ 204: z.null() }) } },
    async (request, reply) => {
      const invitation = await ports.views.invitations.get(request.params.invitationId);
      const position = await cancelInvitation(ports, actorOf(request, ports.clock).context, invitation);
      return sendWrite(reply, await settleWrite(ports, position, { status: 204, present: async () => ({ body: null }) }));
    },
  );
}
