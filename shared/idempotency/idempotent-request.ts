// Runs a command's work at most once per caller and Idempotency-Key, replaying its recorded response to a retry
// of the same request. The record is a stream in the event store, so it outlives restarts and every
// command-API process sees the same one.
import type { CommandContext } from "../commands/command-context.ts";
import { loadState } from "../commands/load-state.ts";
import { toNewEvents } from "../commands/new-events.ts";
import { AppError } from "../errors/app-error.ts";
import { StreamConflictError, type EventStore } from "../event-store/event-store.port.ts";
import { eventGuard } from "../events.ts";
import type { PageId, UserId } from "../kernel/ids.ts";
import {
  idempotencyDecider,
  idempotencyEventSchemas,
  idempotencyStream,
  recordedResponseSchema,
  type IdempotencyCommand,
  type IdempotencyEvent,
  type IdempotencyState,
  type RecordedResponse,
} from "./idempotency.decider.ts";
import { idempotencyKeyHash, parseIdempotencyKey } from "./idempotency-key.ts";

const isIdempotencyEvent = eventGuard<IdempotencyEvent>(idempotencyEventSchemas);
/** A lost race to claim is decided again on fresh state; only a pathological run of takeovers exhausts this. */
const MAX_CLAIM_ATTEMPTS = 5;

export interface IdempotentRequest {
  readonly callerId: UserId;
  /** The Idempotency-Key header's value, unchecked: its syntax is checked here. */
  readonly key: string;
  /** From requestFingerprint: the same key with another fingerprint is refused. */
  readonly fingerprint: string;
  /** From unkeyedRequestFingerprint: matched too, against a key claimed before fingerprints were keyed. */
  readonly unkeyedFingerprint?: string;
  /**
   * The page the request writes to, when its answer's Location does not name it (an image upload's): the answer
   * is recorded with it, sealed under that page's key, so purging the page erases the answer too.
   */
  readonly pageId?: PageId;
}

export interface WorkResult {
  readonly status: number;
  /** Recorded as JSON: what JSON.stringify makes of it is what a replay returns (undefined becomes null). */
  readonly body: unknown;
  readonly consistencyToken: string | null;
  /** The Location header, replayed with the rest. */
  readonly location?: string;
  /** The body is not kept (null): a replay presents the record again. */
  readonly presentAgain?: true;
}

export type IdempotentResponse = RecordedResponse & { readonly replayed: boolean };

type Claim =
  { kind: "replay"; response: RecordedResponse } | { kind: "held"; state: IdempotencyState; revision: number };

/**
 * Runs `work` once for this caller's key and request, and returns its response; a retry of the same request
 * within 24 hours gets that response again, flagged `replayed`, without running the work. The same key while
 * the first request is still in progress is 409 `conflict`; with another request, 422
 * `idempotency_key_mismatch`; a malformed key, 400 `validation_failed`. When the work throws, the key is
 * released so that the client may retry with it, and the error propagates. Times are `context.now`, the
 * request's arrival: the 24 hours run from it, and a work still running 5 minutes after it may see a retry
 * take its key over (its own response is then returned but not recorded).
 *
 * The response is stored in the event store as it is. Never use this for a response that carries a secret,
 * such as the API-token creation response, which shows the token's secret once: it would be stored, and shown
 * again to whoever replays the key.
 */
export async function runIdempotently(
  store: EventStore,
  request: IdempotentRequest,
  context: CommandContext,
  work: () => Promise<WorkResult>,
): Promise<IdempotentResponse> {
  const keyHash = idempotencyKeyHash(request.callerId, parseIdempotencyKey(request.key));
  const stream = idempotencyStream(keyHash);
  const held = { keyHash, fingerprint: request.fingerprint, now: context.now.toISOString() };
  const unkeyed = request.unkeyedFingerprint === undefined ? {} : { unkeyedFingerprint: request.unkeyedFingerprint };
  const claim = await claimKey(store, stream, { type: "ClaimKey", ...held, ...unkeyed }, context);
  if (claim.kind === "replay") return { ...claim.response, replayed: true };

  let response: RecordedResponse;
  try {
    response = asRecorded(await work());
  } catch (error) {
    // The work's own error is what the client must see: a release that fails leaves the claim to expire instead.
    await appendAfterClaim(store, stream, claim, { type: "ReleaseKey", ...held }, context).catch(() => undefined);
    throw error;
  }
  const about = request.pageId === undefined ? {} : { pageId: request.pageId };
  await appendAfterClaim(store, stream, claim, { type: "CompleteRequest", ...held, ...response, ...about }, context);
  return { ...response, replayed: false };
}

async function claimKey(
  store: EventStore,
  stream: string,
  command: IdempotencyCommand,
  context: CommandContext,
): Promise<Claim> {
  for (let attempt = 1; ; attempt += 1) {
    const { state, revision } = await loadState(store, stream, idempotencyDecider, isIdempotencyEvent);
    const events = idempotencyDecider.decide(command, state);
    if (events.length === 0) {
      // The decider claims nothing only when the request completed before: its response replays.
      if (state.status !== "completed")
        throw new Error(`the idempotency decider neither claimed ${stream} nor found a response to replay`);
      return { kind: "replay", response: state.response };
    }
    try {
      const appended = await store.append(
        stream,
        toNewEvents(events, context),
        revision === -1 ? "no_stream" : revision,
      );
      return { kind: "held", state: events.reduce(idempotencyDecider.evolve, state), revision: appended.nextRevision };
    } catch (error) {
      if (!(error instanceof StreamConflictError)) throw error;
      if (attempt >= MAX_CLAIM_ATTEMPTS)
        throw new AppError("conflict", "a request with this Idempotency-Key is still in progress; retry later");
    }
  }
}

/**
 * Appends right after this request's claim. A conflict means the claim expired and another request took the key
 * over: the key's record is then that request's, so there is nothing of this one's to record or to release
 * (a finished work's response still goes to its own client).
 */
async function appendAfterClaim(
  store: EventStore,
  stream: string,
  claim: Extract<Claim, { kind: "held" }>,
  command: IdempotencyCommand,
  context: CommandContext,
): Promise<void> {
  const events = idempotencyDecider.decide(command, claim.state);
  if (events.length === 0) return;
  try {
    await store.append(stream, toNewEvents(events, context), claim.revision);
  } catch (error) {
    if (!(error instanceof StreamConflictError)) throw error;
  }
}

function asRecorded(result: WorkResult): RecordedResponse {
  const wire = JSON.stringify(result.body);
  const body: unknown = wire === undefined ? null : JSON.parse(wire);
  return recordedResponseSchema.parse({
    status: result.status,
    body,
    consistencyToken: result.consistencyToken,
    ...(result.location === undefined ? {} : { location: result.location }),
    ...(result.presentAgain ? { presentAgain: result.presentAgain } : {}),
  });
}
