// The CommandContext of an authenticated request: actor, correlation id (the request id), and now.
import type { FastifyRequest } from "fastify";
import type { Dependencies } from "../../shared/app/dependencies.ts";
import type { CommandContext } from "../../shared/commands/command-context.ts";
import { principalOf } from "../../shared/http/guard.ts";
import { userIdSchema } from "../../shared/kernel/ids.ts";

export function contextOf(deps: Dependencies, request: FastifyRequest): CommandContext {
  return { actorId: userIdSchema.parse(principalOf(request).user.id), correlationId: request.id, now: deps.clock() };
}
