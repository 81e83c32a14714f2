// The group decider bound once to its stream naming.
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import type { GroupId } from "../kernel/ids.ts";
import { groupDecider, groupEventSchemas, groupStream } from "./group.decider.ts";

export const groupCommands = deciderCommandHandler({
  decider: groupDecider,
  streamOf: (groupId: GroupId) => groupStream(groupId),
  eventSchemas: groupEventSchemas,
});
