// Domain events as the event store takes them: validated by the event union, with the metadata every event carries.
import { randomUUID } from "node:crypto";
import type { NewEvent } from "../event-store/event-store.port.ts";
import { domainEventSchema, type DomainEvent } from "../events.ts";
import { schemaVersionOf } from "../event-store/upcasters.ts";
import { assertAppendSize } from "../event-store/append-size.ts";
import type { CommandContext } from "./command-context.ts";

/**
 * Throws AppendTooLargeError (413) when the events exceed what every store takes in one append even before
 * sealing (which the sealing store measures again, at the sealed size).
 */
export function toNewEvents(events: readonly DomainEvent[], context: CommandContext): NewEvent[] {
  const recorded = events.map((event) => ({
    id: randomUUID(),
    type: event.type,
    data: domainEventSchema.parse(event).data,
    metadata: {
      actorId: context.actorId,
      correlationId: context.correlationId,
      ...(context.tokenId ? { tokenId: context.tokenId } : {}),
      causationId: context.causationId ?? null,
      occurredAt: context.now.toISOString(),
      schemaVersion: schemaVersionOf(event.type),
    },
  }));
  assertAppendSize(recorded);
  return recorded;
}
