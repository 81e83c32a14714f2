// POST /tokens and DELETE /tokens/{tokenId}: named API tokens, created and revoked through a browser session.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { hashTokenSecret, newTokenSecret } from "../../../shared/auth/api-token-secret.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { locationOf } from "../../../shared/http/locations.ts";
import { tokenIdSchema } from "../../../shared/kernel/ids.ts";
import { scopeSchema } from "../../../shared/kernel/scopes.ts";
import { tokenCommands } from "../../../shared/tokens/token.commands.ts";
import { createdTokenResource } from "../../../shared/tokens/token.resource.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { tokenAnswer } from "../answers/token.answer.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";
import { nameField } from "../../../shared/kernel/text-fields.ts";

const createTokenBody = z.object({
  name: nameField({ max: 100 }),
  scopes: z
    .array(scopeSchema)
    .min(1)
    .default(["pages:read"])
    .transform((scopes) => [...new Set(scopes)]),
  expiresAt: z.iso.datetime({ offset: true }).nullable().default(null),
});

export function tokenCommandRoutes(app: App, ports: CommandApiPorts): void {
  const config = { access: { sessionOnly: true as const } };
  const answer = answerWrites(ports);

  // The secret is shown once, here, and stored nowhere but as its hash.
  app.post(
    "/tokens",
    { config, schema: { body: createTokenBody, response: writeResponses({ 201: createdTokenResource }) } },
    async (request, reply) =>
      answer(request, reply, async ({ actor: { context }, settle }) => {
        const { name, scopes, expiresAt } = request.body;
        if (expiresAt !== null && Date.parse(expiresAt) <= context.now.getTime()) {
          throw new AppError("validation_failed", "body.expiresAt: must be in the future");
        }
        const tokenId = tokenIdSchema.parse(randomUUID());
        const secret = newTokenSecret();
        const command = {
          type: "CreateToken" as const,
          tokenId,
          userId: context.actorId,
          name,
          scopes,
          expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
          secretHash: hashTokenSecret(secret),
        };
        // The token counts against the quota from before it is recorded until its answer, when the read models show it.
        return ports.quotas.tokens.withReserved(context.actorId, 1, async () => {
          const { position } = await tokenCommands.handle(ports.eventStore, tokenId, command, context);
          const created = {
            id: tokenId,
            name,
            scopes,
            expiresAt: command.expiresAt,
            lastUsedAt: null,
            createdAt: context.now.toISOString(),
          };
          return settle({
            position,
            status: 201,
            location: locationOf.token(tokenId),
            // The secret is shown once, here: a creation not yet visible answers it too, with the record as created.
            answer: tokenAnswer(tokenId, created).map((token) => ({ ...token, token: secret })),
          });
        });
      }),
  );

  app.delete(
    "/tokens/:tokenId",
    { config, schema: { params: z.object({ tokenId: tokenIdSchema }), response: writeResponses({ 204: z.null() }) } },
    async (request, reply) =>
      answer(request, reply, async ({ actor: { context } }) => {
        const { tokenId } = request.params;
        const { position } = await tokenCommands.handle(
          ports.eventStore,
          tokenId,
          { type: "RevokeToken", tokenId, userId: context.actorId },
          context,
        );
        return { position, status: 204 };
      }),
  );
}
