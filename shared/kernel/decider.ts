// The Decider pattern: pure decide/evolve over a stream's events; no I/O, clock or randomness inside.

export interface Decider<Command, State, Event> {
  readonly initialState: State;
  /** Returns the events the command causes; throws an AppError when the command is refused. */
  // Plain functions rather than methods: deciders are handed around unbound (`events.reduce(decider.evolve, state)`).
  readonly decide: (command: Command, state: State) => Event[];
  readonly evolve: (state: State, event: Event) => State;
}

export function fold<State, Event>(
  decider: Pick<Decider<unknown, State, Event>, "initialState" | "evolve">,
  events: readonly Event[],
): State {
  return events.reduce((state, event) => decider.evolve(state, event), decider.initialState);
}
