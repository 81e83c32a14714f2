// Dependencies over the embedded SQLite stores, shared by the all-in-one process and the single-service entries.
import type { Logger } from "pino";
import { SessionVerifier } from "../shared/auth/session-verifier.ts";
import type { Config } from "../shared/config/config.ts";
import { CheckpointWatcher } from "../shared/read-store/checkpoint-watcher.ts";
import { acceptInvitationsOnRegistration } from "../shared/sharing/accept-invitations.ts";
import type { Clock, Dependencies, RegistrationHook } from "../shared/app/dependencies.ts";
import { openEmbeddedEventStore, openEmbeddedReadStore } from "./embedded-stores.ts";
import { sessionKeyFor } from "../shared/app/session-key.ts";

export function embeddedDependencies(config: Config, logger: Logger, clock: Clock = () => new Date()): Dependencies & { close(): Promise<void> } {
  const eventStore = openEmbeddedEventStore(config);
  const readStore = openEmbeddedReadStore(config);
  const watcher = new CheckpointWatcher(readStore);
  const deps = {
    config,
    logger,
    eventStore,
    readStore,
    watcher,
    sessions: new SessionVerifier(sessionKeyFor(config, { createInDataDir: true })),
    clock,
    registrationHooks: [] as RegistrationHook[],
    async close() {
      watcher.close();
      await readStore.close();
      await eventStore.close();
    },
  };
  deps.registrationHooks.push(acceptInvitationsOnRegistration(deps));
  return deps;
}
