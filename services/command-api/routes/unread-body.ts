// A refusal answered before the request's body was read (too large, over the quota): the rest of it never is.
// Once the answer is out, a client that neither sends nor hangs up gets five quiet seconds, then the connection is
// closed (it would otherwise hold shutdown).
import type { FastifyReply, FastifyRequest } from "fastify";

const QUIET_MS = 5_000;

/** Closes the request's connection once the answer is sent, unless the client hangs up first. */
export function closeAfterAnswer(request: FastifyRequest, reply: FastifyReply): void {
  reply.raw.once("finish", () => request.raw.socket.setTimeout(QUIET_MS, () => request.raw.socket.destroy()));
}
