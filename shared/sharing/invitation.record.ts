// An invitation's record as the read models hold it, folded from its stream: a resend queues another delivery,
// and only a delivery's outcome (not its start) changes what readers see of it.
import { recordFold } from "../read-store/record-fold.ts";
import type { InvitationRecord } from "./invitations.view.ts";

export const invitationRecord = recordFold<InvitationRecord>()({
  canHandle: [
    "InvitationQueued",
    "InvitationPermissionChanged",
    "InvitationResent",
    "InvitationAccepted",
    "InvitationExpired",
    "InvitationCancelled",
    "InvitationDelivered",
    "InvitationDeliveryFailed",
    "InvitationAddressErased",
  ],
  evolve(invitation, { event, metadata, position }) {
    if (event.type === "InvitationQueued") {
      const { invitationId, email, access, invitedBy, expiresAt } = event.data;
      return {
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
      };
    }
    if (!invitation) return null;
    switch (event.type) {
      case "InvitationPermissionChanged":
        return { ...invitation, access: event.data.access };
      case "InvitationResent":
        return { ...invitation, lastResentAt: event.data.resentAt, deliveryStatus: "pending" };
      case "InvitationAccepted":
        return { ...invitation, status: "accepted" };
      case "InvitationExpired":
        return { ...invitation, status: "expired" };
      case "InvitationCancelled":
        return { ...invitation, status: "cancelled" };
      case "InvitationDelivered":
        return { ...invitation, deliveryStatus: "sent" };
      case "InvitationDeliveryFailed":
        return { ...invitation, deliveryStatus: "failed" };
      case "InvitationAddressErased":
        return { ...invitation, email: "" };
    }
  },
});
