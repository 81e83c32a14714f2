// Invitation commands: the three resend routes (by id, by entity and address, by workspace address) and
// cancelling by id. Each finds the invitation, then the invitation decider applies the rules.
import { z } from "zod";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { invitationIdSchema } from "../../../shared/kernel/ids.ts";
import { entityTypeSchema } from "../../../shared/sharing/entity-access.decider.ts";
import { invitationResource } from "../../../shared/sharing/invitation.resource.ts";
import type { InvitationRecord } from "../../../shared/sharing/invitations.view.ts";
import { cancelInvitation, resendInvitation } from "../../../shared/sharing/manage-invitation.ts";
import { visibleEntity } from "../../../shared/sharing/shared-entity.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { invitationAnswer } from "../answers/invitation.answer.ts";
import type { Actor } from "../../../shared/commands/guarded-command.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";
import { emailField } from "./fields.ts";

const resentReply = z
  .object({ invitation: invitationResource, message: z.string() })
  .meta({ id: "ResentInvitation", description: "The invitation queued for delivery again" });
const resendResponse = writeResponses({ 200: resentReply });

export function invitationCommandRoutes(app: App, ports: CommandApiPorts): void {
  const config = { access: { scope: "pages:write" as const } };
  const answer = answerWrites(ports);

  async function resend({ context }: Actor, invitation: InvitationRecord | null) {
    const position = await resendInvitation(ports, context, invitation);
    if (!invitation) throw new AppError("internal", "the invitation was not recorded");
    // The resend succeeded, so the caller manages this invitation.
    const resent = invitationAnswer(invitationIdSchema.parse(invitation.id)).map((queued) => ({
      invitation: queued,
      message: `the invitation to ${queued.email} is queued for delivery again`,
    }));
    return { position, status: 200, answer: resent };
  }

  app.post(
    "/shares/invitations/:invitationId/resend",
    { config, schema: { params: z.object({ invitationId: invitationIdSchema }), response: resendResponse } },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) =>
        resend(actor, await ports.views.invitations.get(request.params.invitationId)),
      ),
  );

  app.post(
    "/shares/entity/:entityType/:entityId/invitations/by-email/:email/resend",
    {
      config,
      schema: {
        params: z.object({ entityType: entityTypeSchema, entityId: z.uuid(), email: emailField }),
        response: resendResponse,
      },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { entityType, entityId, email } = request.params;
        await visibleEntity(ports.views, actor.principal, entityType, entityId);
        return resend(actor, await ports.views.invitations.latestFor(entityType, entityId, email));
      }),
  );

  app.post(
    "/shares/workspace/invitations/by-email/:email/resend",
    { config, schema: { params: z.object({ email: emailField }), response: resendResponse } },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) =>
        resend(
          actor,
          await ports.views.invitations.latestFor("workspace", actor.principal.user.id, request.params.email),
        ),
      ),
  );

  app.delete(
    "/shares/invitations/:invitationId",
    {
      config,
      schema: { params: z.object({ invitationId: invitationIdSchema }), response: writeResponses({ 204: z.null() }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const invitation = await ports.views.invitations.get(request.params.invitationId);
        return { position: await cancelInvitation(ports, actor.context, invitation), status: 204 };
      }),
  );
}
