// A stream's current state: its events read back, validated, and folded with the decider's evolve.
import type { EventStore } from "../event-store/event-store.port.ts";
import { parseRecorded, type DomainEvent } from "../events.ts";
import type { Decider } from "../kernel/decider.ts";

export async function loadState<S, E extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Pick<Decider<unknown, S, E>, "initialState" | "evolve">,
  isOwnEvent: (event: DomainEvent) => event is E,
): Promise<{ state: S; revision: number }> {
  const { revision, events } = await store.read(stream);
  let state = decider.initialState;
  for (const recorded of events) {
    const { event } = parseRecorded(recorded);
    if (isOwnEvent(event)) state = decider.evolve(state, event);
  }
  return { state, revision };
}
