// Token commands bound once: the token decider on stream token-<id>.
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import type { TokenId } from "../kernel/ids.ts";
import { tokenDecider, tokenEventSchemas, tokenStream } from "./token.decider.ts";

export const tokenCommands = deciderCommandHandler({
  decider: tokenDecider,
  streamOf: (id: TokenId) => tokenStream(id),
  eventSchemas: tokenEventSchemas,
});
