// Idempotency-Key on the POSTs that create something (IETF Idempotency-Key draft): the same key and request
// replays the first answer for 24 hours, the same key with another request is 422, a duplicate still running
// is 409. Not for POST /tokens, whose answer carries a secret that must never be stored.
import type { FastifyRequest } from "fastify";
import type { Actor } from "../../shared/commands/guarded-command.ts";
import { AppError } from "../../shared/errors/app-error.ts";
import type { PageId } from "../../shared/kernel/ids.ts";
import { runIdempotently } from "../../shared/idempotency/idempotent-request.ts";
import { requestFingerprint, unkeyedRequestFingerprint } from "../../shared/idempotency/request-fingerprint.ts";
import type { CommandApiPorts } from "./command-api-ports.ts";
import type { WriteAnswer } from "./write-answer.ts";

/**
 * The largest answer body kept for a replay, well inside the largest change (MAX_APPEND_BYTES), since the
 * answer is recorded as one event. Routes bound their answers below it (an import lists at most 256 KiB of
 * reasons); one over it would otherwise fail to complete the key after its work committed.
 */
export const RECORDED_ANSWER_MAX_BYTES = 512 * 1024;

/**
 * What is recorded for a replay: the answer, or, when its body is over RECORDED_ANSWER_MAX_BYTES, the 202 a
 * write answers before it is visible (the id, taken from the Location, and how to read it), so the key always
 * completes and a replay never runs the work again.
 */
export function recordable(answer: WriteAnswer): WriteAnswer {
  if (Buffer.byteLength(JSON.stringify(answer.body) ?? "") <= RECORDED_ANSWER_MAX_BYTES) return answer;
  const id = answer.location?.split("/").pop();
  const message = "the request completed; its answer was too large to keep for a replay: read what it wrote with this response's X-Consistency-Token";
  return { ...answer, status: 202, body: { ...(id ? { id } : {}), status: "recorded", message } };
}

/** The header as the draft sends it (a structured-field string, quoted) or bare. */
function keyOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (Array.isArray(header)) throw new AppError("validation_failed", "Idempotency-Key header: send it once");
  const quoted = /^"(.*)"$/.exec(header);
  return quoted?.[1] ?? header;
}

export async function idempotentWrite(
  ports: Pick<CommandApiPorts, "eventStore" | "keyedHashes">,
  request: FastifyRequest,
  actor: Actor,
  write: () => Promise<WriteAnswer>,
  /**
   * `body`: what stands for the body in the fingerprint when it is not JSON (an upload's file is its SHA-256);
   * `pageId`: the page the answer tells of when its Location does not name it (runIdempotently).
   */
  about: { readonly body: unknown; readonly pageId?: PageId } = { body: request.body },
): Promise<WriteAnswer> {
  const key = keyOf(request.headers["idempotency-key"]);
  if (key === null) return write();
  const fingerprinted = { method: request.method, path: request.url.split("?")[0] ?? request.url, body: about.body };
  const fingerprint = requestFingerprint(fingerprinted, ports.keyedHashes.requestFingerprint);
  const live: { answer?: WriteAnswer } = {};
  const idempotent = {
    callerId: actor.context.actorId,
    key,
    fingerprint,
    unkeyedFingerprint: unkeyedRequestFingerprint(fingerprinted),
    ...(about.pageId === undefined ? {} : { pageId: about.pageId }),
  };
  const response = await runIdempotently(ports.eventStore, idempotent, actor.context, async () => {
    live.answer = await write();
    return recordable(live.answer);
  });
  // The request that did the work answers in full, with its own headers (X-Read-Side); a replay has what was recorded.
  const answered = !response.replayed && live.answer ? live.answer : response;
  return {
    status: answered.status,
    body: answered.body,
    consistencyToken: response.consistencyToken ?? "0",
    headers: response.replayed ? { "idempotent-replayed": "true" } : { ...live.answer?.headers },
    ...(response.location === undefined ? {} : { location: response.location }),
  };
}
