// One binding per aggregate: its decider, how its stream is named and which events are its own, given once.
// handle(store, id, command, context) loads the stream, runs the pure decider and appends with the stream's
// revision as the expected revision; a lost race is decided again on fresh state, a bounded number of times.
// A stream the caller has just named with a fresh random id (a new page) is decided on the initial state without
// reading it first: the append still expects no stream, so should it exist after all, the store refuses it and
// the next attempt reads it as usual.
import { AppError } from "../errors/app-error.ts";
import { StreamConflictError, type EventStore } from "../event-store/event-store.port.ts";
import { eventGuard, type DomainEvent } from "../events.ts";
import type { Decider } from "../kernel/decider.ts";
import type { CommandContext } from "./command-context.ts";
import { loadState } from "./load-state.ts";
import { toNewEvents } from "./new-events.ts";

const MAX_ATTEMPTS = 5;

export interface CommandResult<S, E> {
  readonly state: S;
  readonly events: E[];
  /** Global position of the last appended event, or null when the command changed nothing. */
  readonly position: number | null;
}

export interface CommandHandler<Id, C, S, E> {
  /** The stream a command on `id` is decided on. */
  readonly streamOf: (id: Id) => string;
  /** The aggregate's current state, folded from its stream. */
  load(store: EventStore, id: Id): Promise<S>;
  handle(
    store: EventStore,
    id: Id,
    command: C,
    context: CommandContext,
    options?: HandleOptions,
  ): Promise<CommandResult<S, E>>;
}

interface HandleOptions {
  /** The id was just drawn at random for this command: its stream is taken as empty without reading it. */
  readonly newStream?: boolean;
}

export function deciderCommandHandler<Id, C, S, E extends DomainEvent>(options: {
  readonly decider: Decider<C, S, E>;
  readonly streamOf: (id: Id) => string;
  /** The zod schemas of the decider's own events: other events in its stream are not folded. */
  readonly eventSchemas: ReadonlyArray<{ shape: { type: { value: string } } }>;
  /** How many times a lost race is decided again before answering 409 (MAX_ATTEMPTS unless given). */
  readonly maxAttempts?: number;
}): CommandHandler<Id, C, S, E> {
  const { decider, streamOf } = options;
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const isOwnEvent = eventGuard<E>(options.eventSchemas);
  return {
    streamOf,
    async load(store, id) {
      return (await loadState(store, streamOf(id), decider, isOwnEvent)).state;
    },
    async handle(store, id, command, context, handleOptions = {}) {
      const stream = streamOf(id);
      for (let attempt = 1; ; attempt += 1) {
        const { state, revision } =
          attempt === 1 && handleOptions.newStream === true
            ? { state: decider.initialState, revision: -1 }
            : await loadState(store, stream, decider, isOwnEvent);
        const events = decider.decide(command, state);
        if (events.length === 0) return { state, events, position: null };
        try {
          const result = await store.append(
            stream,
            toNewEvents(events, context),
            revision === -1 ? "no_stream" : revision,
          );
          return { state: events.reduce(decider.evolve, state), events, position: result.position };
        } catch (error) {
          if (!(error instanceof StreamConflictError)) throw error;
          if (attempt >= maxAttempts)
            throw new AppError("conflict", "the resource was changed concurrently; try again");
        }
      }
    },
  };
}
