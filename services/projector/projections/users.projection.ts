// UserRegistered and UserProfileChanged into the users read model. UserErasureStarted takes the user out of it at
// once (every request of theirs is refused from then on, sessions and tokens alike) and their address out of the
// invitations sent to it; UserErased does the same for an erasure recorded without a start, and takes their
// tokens and webhooks out of theirs (the erasure revoked and deleted them on the way, by these records).
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";
import { ERASED_EMAIL } from "../../../shared/erasure/erased-values.ts";
import type { EmailReservationEvent, UserEvent } from "../../../shared/users/user.decider.ts";

export async function projectUser<Tx>(
  { event, metadata }: StoredEvent<UserEvent | EmailReservationEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  switch (event.type) {
    case "UserRegistered":
      // Registered under a key since destroyed (a replay after an erasure): nobody to show.
      if (event.data.email === ERASED_EMAIL) return;
      return writers.users.put(tx, {
        id: event.data.userId,
        email: event.data.email,
        name: event.data.name,
        image: event.data.image,
        createdAt: metadata.occurredAt,
      });
    case "UserProfileChanged":
      return writers.users.changeProfile(tx, event.data.userId, event.data.name, event.data.image);
    case "UserErasureStarted":
      return forget(writers, tx, event.data.userId);
    case "UserErased":
      // Their tokens and webhooks go with them: the names, URLs and descriptions they typed.
      await writers.tokens.removeForUser(tx, event.data.userId);
      await writers.apps.removeForUser(tx, event.data.userId);
      await writers.webhooks.removeForOwner(tx, event.data.userId);
      return forget(writers, tx, event.data.userId);
    case "EmailReserved":
    case "EmailReleased":
      return;
  }
}

/** The user's record goes, and their address from the invitations sent to it. */
async function forget<Tx>(writers: ProjectionWriters<Tx>, tx: Tx, userId: string): Promise<void> {
  const email = await writers.users.erase(tx, userId);
  if (email !== null && email !== ERASED_EMAIL) await writers.invitations.forgetAddress(tx, email);
}
