// The invitation email's words, as plain text and as HTML: who invites, to what, with which permission, until
// when, and a link to the workspace. Every value from users is escaped in the HTML.
import type { Mail } from "../../shared/mail/mailer.port.ts";
import type { InvitationState } from "../../shared/sharing/invitation.decider.ts";

type PendingInvitation = Exclude<InvitationState, { status: "absent" }>;

export const escapeHtml = (value: string): string =>
  value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

export function invitationMail(options: {
  messageId: string;
  invitation: PendingInvitation;
  inviterName: string;
  publicBaseUrl: string | null;
}): Mail {
  const { invitation, inviterName, publicBaseUrl } = options;
  const { targetType, permission } = invitation.access;
  // A group is named by nothing: its name is seen only by its members and managers, which the address is not yet.
  const what =
    targetType === "workspace"
      ? `their workspace as ${permission}`
      : targetType === "group"
        ? "a group of their workspace"
        : `a ${targetType} with ${permission} access`;
  const signIn = `Sign in with this address (${invitation.email}) to accept. The invitation expires at ${invitation.expiresAt}.`;
  const text = [
    `${inviterName} invited you to ${what}.`,
    "",
    signIn,
    ...(publicBaseUrl ? ["", `Open the workspace: ${publicBaseUrl}`] : []),
  ].join("\n");
  const html = [
    `<p>${escapeHtml(inviterName)} invited you to ${escapeHtml(what)}.</p>`,
    `<p>${escapeHtml(signIn)}</p>`,
    ...(publicBaseUrl ? [`<p><a href="${escapeHtml(publicBaseUrl)}">Open the workspace</a></p>`] : []),
  ].join("\n");
  return {
    messageId: options.messageId,
    to: invitation.email,
    subject: `${inviterName} invited you to ${targetType === "workspace" ? "a workspace" : `a ${targetType}`}`,
    text,
    html,
  };
}
