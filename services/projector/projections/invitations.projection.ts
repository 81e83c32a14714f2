// Invitation events into the invitations read model: the invitation as `invitationRecord` folds it.
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";
import type { InvitationEvent } from "../../../shared/sharing/invitation.decider.ts";
import { invitationRecord } from "../../../shared/sharing/invitation.record.ts";

export async function projectInvitation<Tx>(
  stored: StoredEvent<InvitationEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  // A started send is still pending for readers: deliveryStatus changes with its outcome.
  if (!invitationRecord.handles(stored)) return;
  const before = await writers.invitations.get(tx, stored.event.data.invitationId);
  const after = invitationRecord.evolve(before, stored);
  if (after) await writers.invitations.put(tx, after);
}
