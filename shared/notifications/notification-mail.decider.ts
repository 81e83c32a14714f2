// What the notifier mailed about notifications, recorded as facts: an email at once per notification
// (NotificationMailed, on `notification-mail-<notificationId>`), and a daily digest per user and day
// (NotificationDigestStarted, then NotificationDigestMailed, on `notification-digest-<userId>-<day>`). Ids, a kind, a day and times only: the mail's
// words (names, titles, addresses) are never in the log. Each stream stays short (one notification's mails, one
// day's digest), so deciding costs the same whatever the user's history.
import { z } from "zod";
import type { Decider } from "../kernel/decider.ts";
import { userIdSchema, type UserId } from "../kernel/ids.ts";
import { notificationKindSchema, type NotificationKind } from "./notification-kinds.ts";

/** A coalesced notification is not mailed again within this long of its last email. */
const MAIL_AGAIN_AFTER_MS = 60 * 60 * 1000;
/** The most attempt ids a notification's state keeps (each is one bus message that mailed). */
const ATTEMPTS_KEPT = 20;
/** A digest started this long ago and never recorded mailed (its notifier stopped) may be started again. */
export const DIGEST_LEASE_MS = 15 * 60 * 1000;

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

export const notificationMailEventSchemas = [
  z.object({
    type: z.literal("NotificationMailed"),
    data: z.object({
      notificationId: z.uuid(),
      userId: userIdSchema,
      kind: notificationKindSchema,
      /** The bus message that caused it: a redelivery of that message sends nothing. */
      attemptId: z.string().min(1).max(200),
      mailedAt: z.iso.datetime(),
    }),
  }),
  z.object({
    type: z.literal("NotificationDigestStarted"),
    data: z.object({
      userId: userIdSchema,
      day: z.string().regex(dayPattern),
      /** Appended at the stream's expected revision before the mail leaves: of two notifiers, one sends. */
      startedAt: z.iso.datetime(),
    }),
  }),
  z.object({
    type: z.literal("NotificationDigestMailed"),
    data: z.object({
      userId: userIdSchema,
      /** The UTC day the digest is for. */
      day: z.string().regex(dayPattern),
      notificationIds: z.array(z.uuid()).max(500),
      mailedAt: z.iso.datetime(),
    }),
  }),
] as const;
export type NotificationMailEvent = z.infer<(typeof notificationMailEventSchemas)[number]>;

export interface NotificationMailState {
  readonly lastMailedAt: string | null;
  readonly attempts: readonly string[];
  readonly digestSent: boolean;
  /** When a notifier last started the digest (null: never). */
  readonly digestStartedAt: string | null;
}

export type NotificationMailCommand =
  | {
      type: "RecordMail";
      notificationId: string;
      userId: UserId;
      kind: NotificationKind;
      attemptId: string;
      now: string;
    }
  | { type: "StartDigest"; userId: UserId; day: string; now: string }
  | { type: "RecordDigest"; userId: UserId; day: string; notificationIds: readonly string[]; now: string };

export const notificationMailStream = (notificationId: string): string => `notification-mail-${notificationId}`;
export const notificationDigestStream = (userId: string, day: string): string => `notification-digest-${userId}-${day}`;

/** Whether a notification's email is owed now: not for this message before, nor for it within MAIL_AGAIN_AFTER_MS. */
export function mailOwed(state: NotificationMailState, attemptId: string, now: Date): boolean {
  if (state.attempts.includes(attemptId)) return false;
  return state.lastMailedAt === null || now.getTime() - Date.parse(state.lastMailedAt) >= MAIL_AGAIN_AFTER_MS;
}

/** Whether a notifier may start the day's digest now: not mailed, and not started by another within the lease. */
export function digestStartable(state: NotificationMailState, now: Date): boolean {
  if (state.digestSent) return false;
  return state.digestStartedAt === null || now.getTime() - Date.parse(state.digestStartedAt) >= DIGEST_LEASE_MS;
}

export const notificationMailDecider: Decider<NotificationMailCommand, NotificationMailState, NotificationMailEvent> = {
  initialState: { lastMailedAt: null, attempts: [], digestSent: false, digestStartedAt: null },
  decide(command, state) {
    switch (command.type) {
      case "RecordMail": {
        if (state.attempts.includes(command.attemptId)) return [];
        const { notificationId, userId, kind, attemptId, now } = command;
        return [{ type: "NotificationMailed", data: { notificationId, userId, kind, attemptId, mailedAt: now } }];
      }
      case "StartDigest": {
        if (!digestStartable(state, new Date(command.now))) return [];
        const { userId, day, now } = command;
        return [{ type: "NotificationDigestStarted", data: { userId, day, startedAt: now } }];
      }
      case "RecordDigest": {
        if (state.digestSent) return [];
        const { userId, day, notificationIds, now } = command;
        return [
          {
            type: "NotificationDigestMailed",
            data: { userId, day, notificationIds: [...notificationIds], mailedAt: now },
          },
        ];
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case "NotificationMailed":
        return {
          ...state,
          lastMailedAt: event.data.mailedAt,
          attempts: [...state.attempts, event.data.attemptId].slice(-ATTEMPTS_KEPT),
        };
      case "NotificationDigestStarted":
        return { ...state, digestStartedAt: event.data.startedAt };
      case "NotificationDigestMailed":
        return { ...state, digestSent: true };
    }
  },
};
