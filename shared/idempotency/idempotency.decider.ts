// One Idempotency-Key of one caller (IETF draft "The Idempotency-Key HTTP Header Field"): the first request
// claims it, its response is recorded on completion and replayed to a retry of the same request for 24 hours.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { pageIdSchema, type PageId } from "../kernel/ids.ts";

/** A completed request's response replays for this long; after it the key may be used afresh. */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A claim that never completed (its process crashed, say) stops blocking the key after this long. */
export const CLAIM_EXPIRY_MS = 5 * 60 * 1000;

const keyHashSchema = z.string().regex(/^[0-9a-f]{64}$/);
const fingerprintSchema = z.string().min(1);

/** What a replay gives back: never a response that carries a secret (the caller's duty, see runIdempotently). */
export const recordedResponseSchema = z.object({
  status: z.number().int().min(100).max(599),
  body: z.json(),
  consistencyToken: z.string().nullable(),
  /** The Location answered (the path of what the request created); absent from responses recorded before it was kept. */
  location: z.string().optional(),
  /** The body was too large to keep (its `body` is null): a replay presents the record again instead. */
  presentAgain: z.literal(true).optional(),
});
export type RecordedResponse = z.infer<typeof recordedResponseSchema>;

export const idempotencyEventSchemas = [
  z.object({
    type: z.literal("IdempotencyKeyClaimed"),
    data: z.object({ keyHash: keyHashSchema, fingerprint: fingerprintSchema, claimedAt: z.iso.datetime() }),
  }),
  z.object({
    type: z.literal("IdempotentRequestCompleted"),
    // The fingerprint is repeated so that a completion reads on its own, without the claim before it. `pageId`
    // names the page the answer tells of when its Location does not (an image upload's), so that the answer is
    // sealed, and erased, with that page (shared/erasure/sealed-content.ts); it is never replayed.
    data: recordedResponseSchema.extend({
      keyHash: keyHashSchema,
      fingerprint: fingerprintSchema,
      completedAt: z.iso.datetime(),
      pageId: pageIdSchema.optional(),
    }),
  }),
  z.object({
    type: z.literal("IdempotencyKeyReleased"),
    data: z.object({ keyHash: keyHashSchema, releasedAt: z.iso.datetime() }),
  }),
] as const;
export type IdempotencyEvent = z.infer<(typeof idempotencyEventSchemas)[number]>;

/** `now` is an ISO date-time: the time the request arrived, given by the caller so that decide stays pure. */
export type IdempotencyCommand =
  /** `unkeyedFingerprint`: the same request's fingerprint as recorded before fingerprints were keyed. */
  | { type: "ClaimKey"; keyHash: string; fingerprint: string; unkeyedFingerprint?: string; now: string }
  | ({ type: "CompleteRequest"; keyHash: string; fingerprint: string; now: string; pageId?: PageId } & RecordedResponse)
  | { type: "ReleaseKey"; keyHash: string; fingerprint: string; now: string };

export type IdempotencyState =
  | { status: "free" }
  | { status: "claimed"; fingerprint: string; claimedAt: string }
  | { status: "completed"; fingerprint: string; completedAt: string; response: RecordedResponse };

/** The key's hash names the stream, so the raw key (which a client may have made from anything) is never a name. */
export const idempotencyStream = (keyHash: string): string => `idempotency-${keyHash}`;

const elapsed = (since: string, now: string): number => Date.parse(now) - Date.parse(since);

function refuseMismatch(): never {
  throw new AppError("idempotency_key_mismatch", "this Idempotency-Key was used for a different request");
}

export const idempotencyDecider: Decider<IdempotencyCommand, IdempotencyState, IdempotencyEvent> = {
  initialState: { status: "free" },
  decide(command, state) {
    switch (command.type) {
      case "ClaimKey": {
        const claim: IdempotencyEvent = {
          type: "IdempotencyKeyClaimed",
          data: { keyHash: command.keyHash, fingerprint: command.fingerprint, claimedAt: command.now },
        };
        const sameRequest = (recorded: string) =>
          recorded === command.fingerprint || recorded === command.unkeyedFingerprint;
        switch (state.status) {
          case "free":
            return [claim];
          case "claimed":
            if (elapsed(state.claimedAt, command.now) >= CLAIM_EXPIRY_MS) return [claim];
            if (!sameRequest(state.fingerprint)) refuseMismatch();
            throw new AppError("conflict", "a request with this Idempotency-Key is still in progress; retry later");
          case "completed":
            if (elapsed(state.completedAt, command.now) >= REPLAY_WINDOW_MS) return [claim];
            if (!sameRequest(state.fingerprint)) refuseMismatch();
            // No event: the recorded response replays, and the work is not run again.
            return [];
          default: {
            const unhandled: never = state;
            throw new Error(`idempotency: no decision for ${JSON.stringify(unhandled)}`);
          }
        }
      }
      // Completing and releasing need the claim this request holds; a claim taken over after it expired is
      // appended at a later revision, which the caller's expected revision already guards against.
      case "CompleteRequest":
        if (state.status !== "claimed" || state.fingerprint !== command.fingerprint) {
          throw new AppError("conflict", "this request no longer holds its Idempotency-Key");
        }
        return [
          {
            type: "IdempotentRequestCompleted",
            data: {
              keyHash: command.keyHash,
              fingerprint: command.fingerprint,
              status: command.status,
              body: command.body,
              consistencyToken: command.consistencyToken,
              ...(command.location === undefined ? {} : { location: command.location }),
              ...(command.presentAgain ? { presentAgain: command.presentAgain } : {}),
              completedAt: command.now,
              ...(command.pageId === undefined ? {} : { pageId: command.pageId }),
            },
          },
        ];
      case "ReleaseKey":
        if (state.status !== "claimed" || state.fingerprint !== command.fingerprint) return [];
        return [{ type: "IdempotencyKeyReleased", data: { keyHash: command.keyHash, releasedAt: command.now } }];
    }
  },
  evolve(_state, event) {
    switch (event.type) {
      case "IdempotencyKeyClaimed":
        return { status: "claimed", fingerprint: event.data.fingerprint, claimedAt: event.data.claimedAt };
      case "IdempotentRequestCompleted": {
        const { fingerprint, completedAt, status, body, consistencyToken, location, presentAgain } = event.data;
        const response = {
          status,
          body,
          consistencyToken,
          ...(location === undefined ? {} : { location }),
          ...(presentAgain ? { presentAgain } : {}),
        };
        return { status: "completed", fingerprint, completedAt, response };
      }
      case "IdempotencyKeyReleased":
        return { status: "free" };
    }
  },
};
