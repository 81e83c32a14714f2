// Idempotency-Key on the POSTs that create something (IETF Idempotency-Key draft): the same key and request
// replays the first answer for 24 hours, the same key with another request is 422, a duplicate still running
// is 409. Not for POST /tokens, whose answer carries a secret that must never be stored.
import type { FastifyRequest } from "fastify";
import type { Actor } from "../../shared/commands/guarded-command.ts";
import { AppError } from "../../shared/errors/app-error.ts";
import type { RecordedResponse } from "../../shared/idempotency/idempotency.decider.ts";
import { runIdempotently } from "../../shared/idempotency/idempotent-request.ts";
import { recordable } from "../../shared/idempotency/recorded-answer.ts";
import { requestFingerprint, unkeyedRequestFingerprint } from "../../shared/idempotency/request-fingerprint.ts";
import type { PageId } from "../../shared/kernel/ids.ts";
import type { CommandApiPorts } from "./command-api-ports.ts";
import type { settleWrite } from "./write-answer.ts";

type WriteAnswer = Awaited<ReturnType<typeof settleWrite>>;

/** The header as the draft sends it (a structured-field string, quoted) or bare. */
function keyOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (Array.isArray(header)) throw new AppError("validation_failed", "Idempotency-Key header: send it once");
  const quoted = /^"(.*)"$/.exec(header);
  return quoted?.[1] ?? header;
}

interface IdempotentWriteOptions {
  /** What stands for the body in the fingerprint when it is not JSON (an upload's file is its SHA-256). */
  readonly fingerprintBody?: unknown;
  /**
   * The route's answer presented again, as of now and at least as of the recorded write, without running the
   * work: for a replay whose first answer was too large to record.
   */
  readonly again?: (recorded: RecordedResponse) => Promise<WriteAnswer>;
  /** The page the answer tells of when its Location does not name it: the answer is sealed under its key. */
  readonly pageId?: PageId;
}

export async function idempotentWrite(
  ports: Pick<CommandApiPorts, "eventStore" | "keyedHashes">,
  request: FastifyRequest,
  actor: Actor,
  write: () => Promise<WriteAnswer>,
  { fingerprintBody = request.body, again, pageId }: IdempotentWriteOptions = {},
): Promise<WriteAnswer> {
  const key = keyOf(request.headers["idempotency-key"]);
  if (key === null) return write();
  const fingerprinted = {
    method: request.method,
    path: request.url.split("?")[0] ?? request.url,
    body: fingerprintBody,
  };
  const fingerprint = requestFingerprint(fingerprinted, ports.keyedHashes.requestFingerprint);
  const live: { answer?: WriteAnswer } = {};
  const idempotent = {
    callerId: actor.context.actorId,
    key,
    fingerprint,
    unkeyedFingerprint: unkeyedRequestFingerprint(fingerprinted),
    ...(pageId === undefined ? {} : { pageId }),
  };
  const response = await runIdempotently(ports.eventStore, idempotent, actor.context, async () => {
    live.answer = await write();
    return recordable(live.answer, again !== undefined);
  });
  // The request that did the work answers in full, with its own headers (X-Read-Side).
  if (!response.replayed && live.answer) return { ...live.answer, consistencyToken: response.consistencyToken ?? "0" };
  const replayed = { "idempotent-replayed": "true" };
  const location = response.location === undefined ? {} : { location: response.location };
  if (response.presentAgain) {
    if (!again)
      throw new Error(
        `the answer recorded for ${request.method} ${request.url} was not kept, and the route cannot present it again`,
      );
    const presented = await again(response);
    return {
      ...presented,
      consistencyToken: response.consistencyToken ?? presented.consistencyToken,
      headers: { ...presented.headers, ...replayed },
      ...location,
    };
  }
  return {
    status: response.status,
    body: response.body,
    consistencyToken: response.consistencyToken ?? "0",
    headers: replayed,
    ...location,
  };
}
