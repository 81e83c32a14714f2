// The invitation email's words.
import type { Mail } from "../../shared/mail/mailer.port.ts";
import type { InvitationState } from "../../shared/sharing/invitation.decider.ts";

type PendingInvitation = Exclude<InvitationState, { status: "absent" }>;

export function invitationMail(options: { messageId: string; invitation: PendingInvitation; inviterName: string; publicBaseUrl: string | null }): Mail {
  const { invitation, inviterName } = options;
  const what =
    invitation.access.targetType === "workspace"
      ? `their workspace as ${invitation.access.permission}`
      : `a ${invitation.access.targetType} with ${invitation.access.permission} access`;
  return {
    messageId: options.messageId,
    to: invitation.email,
    subject: `${inviterName} invited you to ${invitation.access.targetType === "workspace" ? "a workspace" : `a ${invitation.access.targetType}`}`,
    text: [
      `${inviterName} invited you to ${what}.`,
      "",
      `Sign in with this address (${invitation.email}) to accept. The invitation expires at ${invitation.expiresAt}.`,
      ...(options.publicBaseUrl ? ["", `Open the workspace: ${options.publicBaseUrl}`] : []),
    ].join("\n"),
  };
}
