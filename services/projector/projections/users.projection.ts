// UserRegistered and UserProfileChanged into the users read model.
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";
import type { EmailReservationEvent, UserEvent } from "../../../shared/users/user.decider.ts";

export async function projectUser<Tx>({ event, metadata }: StoredEvent<UserEvent | EmailReservationEvent>, writers: ProjectionWriters<Tx>, tx: Tx): Promise<void> {
  switch (event.type) {
    case "UserRegistered":
      return writers.users.put(tx, { id: event.data.userId, email: event.data.email, name: event.data.name, image: event.data.image, createdAt: metadata.occurredAt });
    case "UserProfileChanged":
      return writers.users.changeProfile(tx, event.data.userId, event.data.name, event.data.image);
    case "EmailReserved":
      return;
  }
}
