// User commands bound once: the user decider on stream user-<id>.
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import type { UserId } from "../kernel/ids.ts";
import { userDecider, userEventSchemas, userStream } from "./user.decider.ts";

export const userCommands = deciderCommandHandler({
  decider: userDecider,
  streamOf: (id: UserId) => userStream(id),
  eventSchemas: userEventSchemas,
});
