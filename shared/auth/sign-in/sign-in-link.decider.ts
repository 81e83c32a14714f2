// A one-time sign-in link (`npm run session -- --link`): its first use is recorded in the event log, on a stream
// of its own, so a second use is refused by whichever process it reaches.
import { z } from "zod";
import { AppError } from "../../errors/app-error.ts";
import type { Decider } from "../../kernel/decider.ts";

export const signInLinkEventSchemas = [
  z.object({ type: z.literal("SignInLinkUsed"), data: z.object({ linkId: z.uuid(), usedAt: z.iso.datetime() }) }),
] as const;
export type SignInLinkEvent = z.infer<(typeof signInLinkEventSchemas)[number]>;

/** `now` is an ISO date-time, given by the caller so that decide stays pure. */
export type SignInLinkCommand = { type: "UseSignInLink"; linkId: string; now: string };
export type SignInLinkState = { used: boolean };

export const signInLinkStream = (linkId: string): string => `sign-in-link-${linkId}`;

const signInLinkUsedAlready = (): AppError =>
  new AppError("unauthenticated", "this sign-in link was used already; print a new one");

export const signInLinkDecider: Decider<SignInLinkCommand, SignInLinkState, SignInLinkEvent> = {
  initialState: { used: false },
  decide(command, state) {
    if (state.used) throw signInLinkUsedAlready();
    return [{ type: "SignInLinkUsed", data: { linkId: command.linkId, usedAt: command.now } }];
  },
  evolve(_state, event) {
    switch (event.type) {
      case "SignInLinkUsed":
        return { used: true };
    }
  },
};
