// A command handler with its access guard bound: the guard checks the caller against the read models (404 for
// what they cannot see, 403 for what they may not do) and hands what it found to the command it lets through.
import type { Principal } from "../auth/principal.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import type { CommandContext } from "./command-context.ts";
import type { CommandHandler, CommandResult } from "./decider-command-handler.ts";
import type { WritePorts } from "./write-ports.ts";

/** Who asks, and the facts their events will carry. */
export interface Actor {
  readonly principal: Principal;
  readonly context: CommandContext;
}

export type AccessGuard<Id, G> = (views: ReadModels, principal: Principal, id: Id) => Promise<G>;

export interface GuardedCommand<Id, C, S, E, G> {
  /** Checks access to `id`, builds the command from what the guard found, and handles it. */
  run(ports: WritePorts, actor: Actor, id: Id, command: (granted: G) => C): Promise<CommandResult<S, E>>;
}

export function guardedCommand<Id, C, S, E, G>(
  handler: CommandHandler<Id, C, S, E>,
  guard: AccessGuard<Id, G>,
): GuardedCommand<Id, C, S, E, G> {
  return {
    async run(ports, actor, id, command) {
      const granted = await guard(ports.views, actor.principal, id);
      return handler.handle(ports.eventStore, id, command(granted), actor.context);
    },
  };
}
