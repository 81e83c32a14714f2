// Resending and cancelling an invitation: allowed to whoever may share what it invites to (the workspace
// owner for workspace invitations, its owner and admins for a group's). An invitation to something the caller cannot view is not found.
import type { CommandContext } from "../commands/command-context.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { AppError } from "../errors/app-error.ts";
import { invitationIdSchema } from "../kernel/ids.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import type { InvitationRecord } from "./invitations.view.ts";
import { managesWorkspace } from "../groups/visible-group.ts";
import { mayManageEntityInvitation } from "./share-rules.ts";
import { permissionOn } from "./shared-entity.ts";
import { invitationCommands } from "./sharing.commands.ts";

/** Whether the user can see the invitation's target at all, and whether they may resend or cancel it. */
async function invitationManagement(
  models: ReadModels,
  userId: string,
  invitation: InvitationRecord,
): Promise<{ visible: boolean; canManage: boolean }> {
  const { access } = invitation;
  if (access.targetType === "workspace") {
    const isOwner = access.targetId === userId;
    const isMember = (await models.access.membershipsOf(userId)).some(
      (membership) => membership.ownerId === access.targetId,
    );
    return { visible: isOwner || isMember, canManage: isOwner };
  }
  if (access.targetType === "group") {
    const group = await models.groups.get(access.targetId);
    const context = await models.access.contextFor(userId);
    const manages = group !== null && managesWorkspace(context, group.ownerId);
    return { visible: manages, canManage: manages };
  }
  const permission = await permissionOn(models, userId, access.targetType, access.targetId);
  return { visible: permission !== null, canManage: mayManageEntityInvitation(permission, access.permission) };
}

async function decideOn(
  ports: WritePorts,
  context: CommandContext,
  invitation: InvitationRecord | null,
  action: "resend" | "cancel",
) {
  const { visible, canManage } = invitation
    ? await invitationManagement(ports.views, context.actorId, invitation)
    : { visible: false, canManage: false };
  if (!invitation || !visible) throw new AppError("not_found", "invitation not found");
  const invitationId = invitationIdSchema.parse(invitation.id);
  const command =
    action === "resend"
      ? { type: "ResendInvitation" as const, invitationId, canManage, now: context.now.toISOString() }
      : { type: "CancelInvitation" as const, invitationId, canManage };
  return invitationCommands.handle(ports.eventStore, invitationId, command, context);
}

/** Queues another delivery of a pending invitation; returns the position to await. */
export async function resendInvitation(
  ports: WritePorts,
  context: CommandContext,
  invitation: InvitationRecord | null,
): Promise<number | null> {
  return (await decideOn(ports, context, invitation, "resend")).position;
}

export async function cancelInvitation(
  ports: WritePorts,
  context: CommandContext,
  invitation: InvitationRecord | null,
): Promise<number | null> {
  return (await decideOn(ports, context, invitation, "cancel")).position;
}
