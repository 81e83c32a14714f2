// What the services are wired with: ports and their adapters, chosen once by the entry point.
import type { Logger } from "pino";
import type { Config } from "../config/config.ts";
import type { EventStore } from "../event-store/event-store.port.ts";
import type { CheckpointWatcher } from "../read-store/checkpoint-watcher.ts";
import type { ReadStore } from "../read-store/read-store.port.ts";
import type { SessionVerifier } from "../auth/session-verifier.ts";
import type { UserRecord } from "../users/users.view.ts";
import type { CommandContext } from "../commands/command-context.ts";

export type Clock = () => Date;

/**
 * Reactions to a user's registration, e.g. accepting the invitations sent to that address. They run at each
 * user's first request to a process too, so they must be idempotent.
 */
export type RegistrationHook = (user: UserRecord, context: CommandContext) => Promise<void>;

export interface Dependencies {
  readonly config: Config;
  readonly logger: Logger;
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly watcher: CheckpointWatcher;
  readonly sessions: SessionVerifier;
  readonly clock: Clock;
  readonly registrationHooks: RegistrationHook[];
}
