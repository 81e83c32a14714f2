// A user account: registered on the first sight of a valid session; its profile follows the session's claims;
// erased at the user's request: UserErasureStarted first, after which the account's profile changes and
// sessions are refused while the erasure runs, then UserErased, for good: the same identity signing in again
// registers a new account under a new id (shared/users/record-session.ts).
// The email, name and picture of these events are sealed under the user's key in the log (shared/erasure).
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { userIdSchema, type UserId } from "../kernel/ids.ts";

const profile = {
  name: z.string(),
  image: z.string().nullable(),
};

export const userEventSchemas = [
  z.object({
    type: z.literal("UserRegistered"),
    data: z.object({ userId: userIdSchema, email: z.string(), ...profile }),
  }),
  z.object({ type: z.literal("UserProfileChanged"), data: z.object({ userId: userIdSchema, ...profile }) }),
  z.object({ type: z.literal("UserErasureStarted"), data: z.object({ userId: userIdSchema, startedAt: z.string() }) }),
  z.object({ type: z.literal("UserErased"), data: z.object({ userId: userIdSchema, erasedAt: z.string() }) }),
] as const;
export type UserEvent = z.infer<(typeof userEventSchemas)[number]>;

export type UserCommand =
  /** `sessionIssuedAt`: the session's `iat` (ms), null when it has none. */
  | {
      type: "RegisterUser";
      userId: UserId;
      email: string;
      name: string;
      image: string | null;
      sessionIssuedAt: number | null;
    }
  | { type: "ChangeProfile"; userId: UserId; name: string; image: string | null }
  | { type: "StartErasure"; userId: UserId; now: string }
  | { type: "EraseUser"; userId: UserId; now: string };

/** `erasedAt`: when the account under this id was last erased, if ever; `erasing`: its erasure has started. */
export type UserState =
  | { registered: false; erasedAt?: string }
  | { registered: true; email: string; name: string; image: string | null; erasing: boolean };

const beingErased = () => new AppError("unauthenticated", "this account is being erased");
export const sessionBeforeErasure = () =>
  new AppError("unauthenticated", "this session was issued before its account was erased: sign in again");

export const userStream = (userId: string): string => `user-${userId}`;

export const userDecider: Decider<UserCommand, UserState, UserEvent> = {
  initialState: { registered: false },
  decide(command, state) {
    switch (command.type) {
      case "RegisterUser":
        if (state.registered && state.erasing) throw beingErased();
        if (state.registered) return [];
        // A session from before the erasure (the browser that asked for it, a copy of its cookie) must not bring
        // the account back at its next request: only a session issued after it registers afresh.
        if (
          state.erasedAt !== undefined &&
          (command.sessionIssuedAt === null || command.sessionIssuedAt <= Date.parse(state.erasedAt))
        ) {
          throw sessionBeforeErasure();
        }
        // An erased account never comes back: a later session of its subject signs in to a new account, under a
        // new id (shared/users/record-session.ts).
        if (state.erasedAt !== undefined)
          throw new AppError("conflict", "this account was erased: its id is not registered again");
        return [
          {
            type: "UserRegistered",
            data: { userId: command.userId, email: command.email, name: command.name, image: command.image },
          },
        ];
      case "ChangeProfile":
        if (!state.registered) throw new AppError("not_found", "user not found");
        if (state.erasing) throw beingErased();
        if (state.name === command.name && state.image === command.image) return [];
        return [
          { type: "UserProfileChanged", data: { userId: command.userId, name: command.name, image: command.image } },
        ];
      case "StartErasure":
        if (!state.registered || state.erasing) return [];
        return [{ type: "UserErasureStarted", data: { userId: command.userId, startedAt: command.now } }];
      case "EraseUser":
        if (!state.registered) return [];
        return [{ type: "UserErased", data: { userId: command.userId, erasedAt: command.now } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case "UserRegistered":
        return {
          registered: true,
          email: event.data.email,
          name: event.data.name,
          image: event.data.image,
          erasing: false,
        };
      case "UserProfileChanged":
        return state.registered ? { ...state, name: event.data.name, image: event.data.image } : state;
      case "UserErasureStarted":
        return state.registered ? { ...state, erasing: true } : state;
      case "UserErased":
        return { registered: false, erasedAt: event.data.erasedAt };
    }
  },
};

/**
 * One account per email address: a reservation stream, `email-<address>` to the domain (stored under the
 * address's keyed hash, never the address). The address is taken by an EmailReserved and freed by an
 * EmailReleased when its account is erased.
 */
export const emailReservationEventSchemas = [
  z.object({ type: z.literal("EmailReserved"), data: z.object({ email: z.string(), userId: userIdSchema }) }),
  z.object({ type: z.literal("EmailReleased"), data: z.object({ userId: userIdSchema }) }),
] as const;
export type EmailReservationEvent = z.infer<(typeof emailReservationEventSchemas)[number]>;
export const emailReservationStream = (email: string): string => `email-${normalizeEmail(email)}`;

/** The account holding the address after these events, or null when it is free. */
export function reservationHolder(events: readonly EmailReservationEvent[]): string | null {
  let holder: string | null = null;
  for (const event of events)
    holder = event.type === "EmailReserved" ? event.data.userId : event.data.userId === holder ? null : holder;
  return holder;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
