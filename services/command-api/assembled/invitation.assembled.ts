// An invitation's record as the write side knows it, from its own stream: what a sharing write answers (202)
// while the read models have not caught up with it.
import type { EventStore } from "../../../shared/event-store/event-store.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { InvitationId } from "../../../shared/kernel/ids.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import { toInvitationResource, type InvitationResource } from "../../../shared/sharing/invitation.resource.ts";
import { invitationCommands } from "../../../shared/sharing/sharing.commands.ts";

/** `now`: when the write was decided. Whoever just invited or resent manages the invitation: the same rules decide both. */
export async function assembleInvitation(
  ports: { eventStore: EventStore; views: ReadModels },
  invitationId: InvitationId,
  now: Date,
): Promise<InvitationResource> {
  const state = await invitationCommands.load(ports.eventStore, invitationId);
  if (state.status === "absent") throw new AppError("internal", "the invitation was not recorded");
  const before = await ports.views.invitations.get(invitationId);
  const { email, access, invitedBy, status, delivery, expiresAt, lastResentAt } = state;
  const record = {
    id: invitationId,
    email,
    access,
    invitedBy,
    status,
    deliveryStatus: delivery,
    expiresAt,
    lastResentAt,
  };
  return toInvitationResource(
    { ...record, createdAt: before?.createdAt ?? now.toISOString(), createdPosition: before?.createdPosition ?? 0 },
    true,
  );
}
