// Invitation events into the invitations read model.
import type { StoredEvent } from "../../../shared/events.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import type { InvitationEvent } from "../../../shared/sharing/invitation.decider.ts";

export async function projectInvitation({ event, metadata, position }: StoredEvent<InvitationEvent>, models: ReadModels): Promise<void> {
  switch (event.type) {
    case "InvitationQueued": {
      const { invitationId, email, access, invitedBy, expiresAt } = event.data;
      return models.invitations.put({
        id: invitationId,
        email,
        access,
        invitedBy,
        status: "pending",
        deliveryStatus: "pending",
        expiresAt,
        createdAt: metadata.occurredAt,
        createdPosition: position,
        lastResentAt: null,
      });
    }
    case "InvitationPermissionChanged":
      return models.invitations.changeAccess(event.data.invitationId, event.data.access);
    case "InvitationResent":
      return models.invitations.markResent(event.data.invitationId, event.data.resentAt);
    case "InvitationAccepted":
      return models.invitations.settle(event.data.invitationId, "accepted");
    case "InvitationExpired":
      return models.invitations.settle(event.data.invitationId, "expired");
    case "InvitationCancelled":
      return models.invitations.settle(event.data.invitationId, "cancelled");
    case "InvitationDeliveryStarted":
      return; // a started send is still pending for readers: deliveryStatus changes only once it is delivered
    case "InvitationDelivered":
      return models.invitations.markDelivered(event.data.invitationId);
  }
}
