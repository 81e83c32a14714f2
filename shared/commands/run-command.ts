// Loads a stream, runs the pure decider, appends with the expected revision; retries a lost race from fresh state.
import { randomUUID } from "node:crypto";
import { AppError } from "../errors/app-error.ts";
import { StreamConflictError, type EventStore } from "../event-store/event-store.port.ts";
import { domainEventSchema, type DomainEvent } from "../events.ts";
import type { Decider } from "../kernel/decider.ts";
import type { CommandContext } from "./command-context.ts";
import { loadState } from "./load-state.ts";

export const SCHEMA_VERSION = 1;
const MAX_ATTEMPTS = 5;

export interface CommandResult<S, E> {
  readonly state: S;
  readonly events: E[];
  /** Global position of the last appended event, or null when the command changed nothing. */
  readonly position: number | null;
}

export function toNewEvents(events: readonly DomainEvent[], context: CommandContext) {
  return events.map((event) => ({
    id: randomUUID(),
    type: event.type,
    data: domainEventSchema.parse(event).data,
    metadata: {
      actorId: context.actorId,
      correlationId: context.correlationId,
      causationId: context.causationId ?? null,
      occurredAt: context.now.toISOString(),
      schemaVersion: SCHEMA_VERSION,
    },
  }));
}

export async function runCommand<C, S, E extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<C, S, E>,
  isOwnEvent: (event: DomainEvent) => event is E,
  command: C,
  context: CommandContext,
): Promise<CommandResult<S, E>> {
  for (let attempt = 1; ; attempt += 1) {
    const { state, revision } = await loadState(store, stream, decider, isOwnEvent);
    const events = decider.decide(command, state);
    if (events.length === 0) return { state, events, position: null };
    const expected = revision === -1 ? "no_stream" : revision;
    try {
      const result = await store.append(stream, toNewEvents(events, context), expected);
      return { state: events.reduce(decider.evolve, state), events, position: result.position };
    } catch (error) {
      if (!(error instanceof StreamConflictError)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new AppError("conflict", "the resource was changed concurrently; try again");
    }
  }
}
