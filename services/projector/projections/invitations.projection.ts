// Invitation events into the invitations read model.
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";
import type { InvitationEvent } from "../../../shared/sharing/invitation.decider.ts";

export async function projectInvitation<Tx>(
  { event, metadata, position }: StoredEvent<InvitationEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  switch (event.type) {
    case "InvitationQueued": {
      const { invitationId, email, access, invitedBy, expiresAt } = event.data;
      return writers.invitations.put(tx, {
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
      return writers.invitations.changeAccess(tx, event.data.invitationId, event.data.access);
    case "InvitationResent":
      return writers.invitations.markResent(tx, event.data.invitationId, event.data.resentAt);
    case "InvitationAccepted":
      return writers.invitations.settle(tx, event.data.invitationId, "accepted");
    case "InvitationExpired":
      return writers.invitations.settle(tx, event.data.invitationId, "expired");
    case "InvitationCancelled":
      return writers.invitations.settle(tx, event.data.invitationId, "cancelled");
    case "InvitationDeliveryStarted":
      return; // a started send is still pending for readers: deliveryStatus changes with its outcome
    case "InvitationDeliveryFailed":
      return writers.invitations.setDeliveryStatus(tx, event.data.invitationId, "failed");
    case "InvitationDelivered":
      return writers.invitations.setDeliveryStatus(tx, event.data.invitationId, "sent");
    case "InvitationAddressErased":
      return writers.invitations.forgetAddressOf(tx, event.data.invitationId);
  }
}
