// An invitation as a write that queued it (an address without an account, a resend) answers it: whoever just
// invited or resent manages the invitation, as the same rules decide both. Meanwhile its stream folded with the
// read model's own record fold.
import { recordOfStream } from "../../../shared/commands/record-of-stream.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { InvitationId } from "../../../shared/kernel/ids.ts";
import { invitationStream } from "../../../shared/sharing/invitation.decider.ts";
import { invitationRecord } from "../../../shared/sharing/invitation.record.ts";
import { toInvitationResource, type InvitationResource } from "../../../shared/sharing/invitation.resource.ts";
import type { InvitationRecord } from "../../../shared/sharing/invitations.view.ts";
import { answerOf, type Answer } from "./answer.ts";

const recorded = (invitation: InvitationRecord | null | undefined) => {
  if (!invitation) throw new AppError("internal", "the invitation was not recorded");
  return { body: toInvitationResource(invitation, true) };
};

export const invitationAnswer = (invitationId: InvitationId): Answer<InvitationResource> =>
  answerOf(
    async (ports) => recorded(await ports.views.invitations.get(invitationId)),
    async (ports) => recorded(await recordOfStream(ports.eventStore, invitationStream(invitationId), invitationRecord)),
  );
