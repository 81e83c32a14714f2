// DELETE /me: a signed-in person erases their own account (shared/users/erase-user.ts). Only a browser session
// may ask, and the body must repeat the account's email address, so a stray call or a stolen token cannot.
import { z } from "zod";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { eraseUser } from "../../../shared/users/erase-user.ts";
import { normalizeEmail } from "../../../shared/users/user.decider.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";

const eraseAccountBody = z.object({
  /** The account's email address, as a confirmation. */
  confirm: z.string().max(320),
});

export function meCommandRoutes(app: App, ports: CommandApiPorts): void {
  const answer = answerWrites(ports);
  app.delete(
    "/me",
    {
      config: { access: { sessionOnly: true as const } },
      schema: { body: eraseAccountBody, response: writeResponses({ 204: z.null() }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor: { principal, context } }) => {
        if (normalizeEmail(request.body.confirm) !== normalizeEmail(principal.user.email)) {
          throw new AppError("validation_failed", "body.confirm: must be this account's email address");
        }
        const awaitReadModels = (position: number) => ports.projection.waitFor(position, ports.consistencyWaitMs);
        const { position } = await eraseUser({ ...ports, ...ports.erasure, awaitReadModels }, context.actorId, context);
        ports.logger.info({ event: "user.erased", userId: context.actorId });
        return { position, status: 204 };
      }),
  );
}
