// The caller of a request as the command layer sees it: who acts (through which token), under which request id,
// and when the request is decided.
import type { FastifyRequest } from "fastify";
import type { Actor } from "../../shared/commands/guarded-command.ts";
import { userIdSchema } from "../../shared/kernel/ids.ts";
import { principalOf } from "../../shared/http/guard.ts";

export function actorOf(request: FastifyRequest, clock: () => Date): Actor {
  const principal = principalOf(request);
  return {
    principal,
    context: {
      actorId: userIdSchema.parse(principal.user.id),
      tokenId: principal.tokenId,
      correlationId: request.id,
      now: clock(),
    },
  };
}
