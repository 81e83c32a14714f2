// Idempotency-Key on the POSTs that create something (IETF Idempotency-Key draft): the same key and request
// replays the first answer for 24 hours, the same key with another request is 422, a duplicate still running
// is 409. Not for POST /tokens, whose answer carries a secret that must never be stored.
import type { FastifyRequest } from "fastify";
import type { Actor } from "../../shared/commands/guarded-command.ts";
import { AppError } from "../../shared/errors/app-error.ts";
import { runIdempotently } from "../../shared/idempotency/idempotent-request.ts";
import { requestFingerprint } from "../../shared/idempotency/request-fingerprint.ts";
import type { CommandApiPorts } from "./command-api.ts";
import type { WriteAnswer } from "./write-answer.ts";

/** The header as the draft sends it (a structured-field string, quoted) or bare. */
function keyOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (Array.isArray(header)) throw new AppError("validation_failed", "Idempotency-Key header: send it once");
  const quoted = /^"(.*)"$/.exec(header);
  return quoted?.[1] ?? header;
}

export async function idempotentWrite(
  ports: Pick<CommandApiPorts, "eventStore">,
  request: FastifyRequest,
  actor: Actor,
  write: () => Promise<WriteAnswer>,
  /** What stands for the body in the fingerprint when it is not JSON (an upload's file is its SHA-256). */
  body: unknown = request.body,
): Promise<WriteAnswer> {
  const key = keyOf(request.headers["idempotency-key"]);
  if (key === null) return write();
  const fingerprint = requestFingerprint({ method: request.method, path: request.url.split("?")[0] ?? request.url, body });
  // The answer as sent the first time keeps its own headers (X-Read-Side); a replay has what was recorded.
  const live: { answer?: WriteAnswer } = {};
  const response = await runIdempotently(ports.eventStore, { callerId: actor.context.actorId, key, fingerprint }, actor.context, async () => (live.answer = await write()));
  return {
    status: response.status,
    body: response.body,
    consistencyToken: response.consistencyToken ?? "0",
    headers: response.replayed ? { "idempotent-replayed": "true" } : { ...live.answer?.headers },
    ...(response.location === undefined ? {} : { location: response.location }),
  };
}
