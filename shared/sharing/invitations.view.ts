// Read model of invitations: what owners list and resend, and what a registering address accepts.
import type { DeliveryStatus, InvitationStatus, InvitedAccess } from "./invitation.decider.ts";

export interface InvitationRecord {
  readonly id: string;
  readonly email: string;
  readonly access: InvitedAccess;
  readonly invitedBy: string;
  readonly status: InvitationStatus;
  /** `pending` while the latest queued delivery has no outcome, then `sent` or `failed`. */
  readonly deliveryStatus: DeliveryStatus;
  readonly expiresAt: string;
  readonly createdAt: string;
  /** Global position of InvitationQueued: orders invitations by age. */
  readonly createdPosition: number;
  readonly lastResentAt: string | null;
}

export type InvitationTargetType = InvitedAccess["targetType"];

export interface InvitationsView {
  get(id: string): Promise<InvitationRecord | null>;
  /** Pending, unexpired invitations to one page, folder or workspace, oldest first. */
  pendingFor(targetType: InvitationTargetType, targetId: string, now: string): Promise<InvitationRecord[]>;
  /** The newest invitation of this address to this target, whatever its status. */
  latestFor(targetType: InvitationTargetType, targetId: string, email: string): Promise<InvitationRecord | null>;
  /** Every pending invitation of an address, expired or not: what its registration settles. */
  pendingForEmail(email: string): Promise<InvitationRecord[]>;
  /** Every invitation that names an address, whatever its status: what erasing the address reaches. */
  toAddress(email: string): Promise<InvitationRecord[]>;
  /** Pending invitations whose latest queued delivery has not gone out, oldest first. */
  undelivered(): Promise<InvitationRecord[]>;
}

export interface InvitationsWriter<Tx> {
  /** The invitation as the batch sees it (with the batch's own changes), or null. */
  get(tx: Tx, id: string): Promise<InvitationRecord | null>;
  /** Stores the invitation as `invitationRecord` folds it. */
  put(tx: Tx, invitation: InvitationRecord): Promise<void>;
  /** The page or folder was purged: invitations to it go. */
  removeTarget(tx: Tx, targetType: InvitationTargetType, targetId: string): Promise<void>;
  /** The address's owner was erased: invitations sent to it keep their place but no longer name it. */
  forgetAddress(tx: Tx, email: string): Promise<void>;
}
