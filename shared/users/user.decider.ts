// A user account: registered on the first sight of a valid session; its profile follows the session's claims.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { userIdSchema, type UserId } from "../kernel/ids.ts";

const profile = {
  name: z.string(),
  image: z.string().nullable(),
};

export const userEventSchemas = [
  z.object({ type: z.literal("UserRegistered"), data: z.object({ userId: userIdSchema, email: z.string(), ...profile }) }),
  z.object({ type: z.literal("UserProfileChanged"), data: z.object({ userId: userIdSchema, ...profile }) }),
] as const;
export type UserEvent = z.infer<(typeof userEventSchemas)[number]>;

export type UserCommand =
  | { type: "RegisterUser"; userId: UserId; email: string; name: string; image: string | null }
  | { type: "ChangeProfile"; userId: UserId; name: string; image: string | null };

export type UserState =
  | { registered: false }
  | { registered: true; email: string; name: string; image: string | null };

export const userStream = (userId: string): string => `user-${userId}`;

export const userDecider: Decider<UserCommand, UserState, UserEvent> = {
  initialState: { registered: false },
  decide(command, state) {
    switch (command.type) {
      case "RegisterUser":
        if (state.registered) return [];
        return [{ type: "UserRegistered", data: { userId: command.userId, email: command.email, name: command.name, image: command.image } }];
      case "ChangeProfile":
        if (!state.registered) throw new AppError("not_found", "user not found");
        if (state.name === command.name && state.image === command.image) return [];
        return [{ type: "UserProfileChanged", data: { userId: command.userId, name: command.name, image: command.image } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case "UserRegistered":
        return { registered: true, email: event.data.email, name: event.data.name, image: event.data.image };
      case "UserProfileChanged":
        return state.registered ? { ...state, name: event.data.name, image: event.data.image } : state;
    }
  },
};

/** One account per email address: a reservation stream appended with "no stream" expected. */
export const emailReservationEventSchemas = [
  z.object({ type: z.literal("EmailReserved"), data: z.object({ email: z.string(), userId: userIdSchema }) }),
] as const;
export type EmailReservationEvent = z.infer<(typeof emailReservationEventSchemas)[number]>;
export const emailReservationStream = (email: string): string => `email-${normalizeEmail(email)}`;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
