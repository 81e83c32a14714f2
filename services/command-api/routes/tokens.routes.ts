// POST /tokens and DELETE /tokens/{tokenId}: named API tokens, created and revoked through a browser session.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Dependencies } from "../../../shared/app/dependencies.ts";
import { hashTokenSecret, newTokenSecret } from "../../../shared/auth/api-token-secret.ts";
import { awaitProjection } from "../../../shared/commands/commit.ts";
import { runCommand } from "../../../shared/commands/run-command.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { eventGuard } from "../../../shared/events.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { guard, principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { tokenIdSchema } from "../../../shared/kernel/ids.ts";
import { scopeSchema } from "../../../shared/kernel/scopes.ts";
import { tokenDecider, tokenEventSchemas, tokenStream, type TokenEvent } from "../../../shared/tokens/token.decider.ts";
import { createdTokenResource, toTokenResource } from "../../../shared/tokens/token.resource.ts";
import { contextOf } from "../context-of-request.ts";

const isTokenEvent = eventGuard<TokenEvent>(tokenEventSchemas);

const createTokenBody = z.object({
  name: z.string().trim().min(1).max(100),
  scopes: z
    .array(scopeSchema)
    .min(1)
    .default(["pages:read"])
    .transform((scopes) => [...new Set(scopes)]),
  expiresAt: z.iso.datetime({ offset: true }).nullable().default(null),
});

export function tokenCommandRoutes(app: App, deps: Dependencies): void {
  app.post(
    "/tokens",
    {
      onRequest: guard(deps, { sessionOnly: true }),
      schema: { body: createTokenBody, response: { 201: createdTokenResource, "4xx": errorBody } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const context = contextOf(deps, request);
      const { name, scopes, expiresAt } = request.body;
      if (expiresAt !== null && Date.parse(expiresAt) <= context.now.getTime()) {
        throw new AppError("validation_failed", "body.expiresAt: must be in the future");
      }
      const tokenId = tokenIdSchema.parse(randomUUID());
      const secret = newTokenSecret();
      const result = await runCommand(deps.eventStore, tokenStream(tokenId), tokenDecider, isTokenEvent, {
        type: "CreateToken",
        tokenId,
        userId: context.actorId,
        name,
        scopes,
        expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
        secretHash: hashTokenSecret(secret),
      }, context);
      await awaitProjection(deps, result.position, reply);
      const token = await deps.readStore.tokens.get(tokenId);
      if (!token || token.userId !== principal.user.id) throw new AppError("internal", "token was not recorded");
      return reply.code(201).send({ ...toTokenResource(token), token: secret });
    },
  );

  app.delete(
    "/tokens/:tokenId",
    {
      onRequest: guard(deps, { sessionOnly: true }),
      schema: { params: z.object({ tokenId: tokenIdSchema }), response: { 204: z.null(), "4xx": errorBody } },
    },
    async (request, reply) => {
      const context = contextOf(deps, request);
      const result = await runCommand(deps.eventStore, tokenStream(request.params.tokenId), tokenDecider, isTokenEvent, {
        type: "RevokeToken",
        tokenId: request.params.tokenId,
        userId: context.actorId,
      }, context);
      await awaitProjection(deps, result.position, reply);
      return reply.code(204).send(null);
    },
  );
}
