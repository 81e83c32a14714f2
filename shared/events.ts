// Every domain event the system records, as one discriminated union validated on write and on read.
import { z } from "zod";
import { threadEventSchemas } from "./comments/thread.decider.ts";
import type { EventMetadata, RecordedEvent } from "./event-store/event-store.port.ts";
import { folderEventSchemas } from "./folders/folder.decider.ts";
import { folderTreeEventSchemas } from "./folders/folder-tree.decider.ts";
import { idempotencyEventSchemas } from "./idempotency/idempotency.decider.ts";
import { invitationSlotEventSchemas } from "./sharing/invitation-slot.decider.ts";
import { pageEventSchemas } from "./pages/page.decider.ts";
import { entityAccessEventSchemas } from "./sharing/entity-access.decider.ts";
import { invitationEventSchemas } from "./sharing/invitation.decider.ts";
import { workspaceEventSchemas } from "./sharing/workspace.decider.ts";
import { tokenEventSchemas } from "./tokens/token.decider.ts";
import { emailReservationEventSchemas, userEventSchemas } from "./users/user.decider.ts";

export const domainEventSchema = z.discriminatedUnion("type", [
  ...userEventSchemas,
  ...emailReservationEventSchemas,
  ...tokenEventSchemas,
  ...folderEventSchemas,
  ...folderTreeEventSchemas,
  ...pageEventSchemas,
  ...threadEventSchemas,
  ...entityAccessEventSchemas,
  ...workspaceEventSchemas,
  ...invitationEventSchemas,
  ...invitationSlotEventSchemas,
  ...idempotencyEventSchemas,
]);
export type DomainEvent = z.infer<typeof domainEventSchema>;
export type DomainEventType = DomainEvent["type"];

/** A domain event as read back from the store, with its place in history. */
export interface StoredEvent<E extends DomainEvent = DomainEvent> {
  readonly id: string;
  readonly stream: string;
  readonly revision: number;
  readonly position: number;
  readonly metadata: EventMetadata;
  readonly event: E;
}

export class CorruptEventError extends Error {}

export function parseRecorded(recorded: RecordedEvent): StoredEvent {
  const parsed = domainEventSchema.safeParse({ type: recorded.type, data: recorded.data });
  if (!parsed.success) {
    throw new CorruptEventError(`event ${recorded.id} (${recorded.type}) at position ${recorded.position} does not match its schema`);
  }
  return {
    id: recorded.id,
    stream: recorded.stream,
    revision: recorded.revision,
    position: recorded.position,
    metadata: recorded.metadata,
    event: parsed.data,
  };
}

/** A type guard for the events one decider owns, built from its schemas' type literals. */
export function eventGuard<E extends DomainEvent>(
  schemas: ReadonlyArray<{ shape: { type: { value: string } } }>,
): (event: DomainEvent) => event is E {
  const types = new Set(schemas.map((schema) => schema.shape.type.value));
  return (event): event is E => types.has(event.type);
}
