// The sign-in link's command handler: its decider bound to its stream; a lost race is decided again, and refused.
import { deciderCommandHandler } from "../../commands/decider-command-handler.ts";
import { signInLinkDecider, signInLinkEventSchemas, signInLinkStream } from "./sign-in-link.decider.ts";

export const signInLinkCommands = deciderCommandHandler({
  decider: signInLinkDecider,
  streamOf: signInLinkStream,
  eventSchemas: signInLinkEventSchemas,
  maxAttempts: 2,
});
