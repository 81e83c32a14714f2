// UserRegistered and UserProfileChanged into the users read model.
import type { StoredEvent } from "../../../shared/events.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import type { EmailReservationEvent, UserEvent } from "../../../shared/users/user.decider.ts";

export async function projectUser({ event, metadata }: StoredEvent<UserEvent | EmailReservationEvent>, models: ReadModels): Promise<void> {
  switch (event.type) {
    case "UserRegistered":
      return models.users.put({ id: event.data.userId, email: event.data.email, name: event.data.name, image: event.data.image, createdAt: metadata.occurredAt });
    case "UserProfileChanged":
      return models.users.changeProfile(event.data.userId, event.data.name, event.data.image);
    case "EmailReserved":
      return;
  }
}
