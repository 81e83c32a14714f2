// Erasing an address that has no account (`npm run erase -- --email` for an address only ever invited): every
// invitation naming it is cancelled while pending and records InvitationAddressErased, on which the read models
// stop naming it; then the address's key is destroyed, so each InvitationQueued that named it reads as erased in
// the log, its replays and backups; then the kept mail to it, and the audit copies of the read models that
// mention it, are deleted. Each step is safe to run again.
import type { CommandContext } from "../commands/command-context.ts";
import type { EventStore } from "../event-store/event-store.port.ts";
import { subjects, type KeyStore } from "../erasure/key-store.port.ts";
import { invitationIdSchema, userIdSchema, type UserId } from "../kernel/ids.ts";
import type { SentMail } from "../mail/sent-mail.port.ts";
import type { ReadModelCopies } from "../erasure/read-model-copies.port.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { invitationCommands } from "./sharing.commands.ts";

export interface AddressErasurePorts {
  readonly eventStore: EventStore;
  readonly views: Pick<ReadModels, "invitations">;
  readonly keys: Pick<KeyStore, "destroy">;
  /** The keyed hash an address's key is named by. */
  readonly addressHash: (address: string) => string;
  readonly sentMail: SentMail | null;
  readonly readModelCopies: ReadModelCopies | null;
}

/**
 * `email` normalised. `context(invitedBy)`: each invitation's events are recorded as by its inviter. Answers how
 * many invitations named the address, and the position of the last event appended.
 */
export async function eraseAddress(
  ports: AddressErasurePorts,
  email: string,
  context: (invitedBy: UserId) => CommandContext,
): Promise<{ invitations: number; position: number | null }> {
  const invitations = await ports.views.invitations.toAddress(email);
  let position: number | null = null;
  for (const invitation of invitations) {
    const invitationId = invitationIdSchema.parse(invitation.id);
    const erased = await invitationCommands.handle(
      ports.eventStore,
      invitationId,
      { type: "EraseAddress", invitationId },
      context(userIdSchema.parse(invitation.invitedBy)),
    );
    position = erased.position ?? position;
  }
  await ports.keys.destroy(subjects.address(ports.addressHash(email)));
  await ports.sentMail?.eraseNaming([email]);
  await ports.readModelCopies?.eraseMentioning([email]);
  return { invitations: invitations.length, position };
}
