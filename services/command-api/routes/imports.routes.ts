// POST /imports/obsidian: a vault's notes and images become folders, pages and uploaded images under the
// caller's root (services/command-api/imports/vault-import.ts does the work). One request is one logical
// operation: every event carries the request's correlation id, ids derive from the Idempotency-Key (when sent)
// so a retry after a failure creates only what is missing, and progress is logged as it goes.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { contentBytes, IMPORT_MAX_FILES, IMPORT_MAX_TOTAL_BYTES } from "../../../shared/imports/vault-files.ts";
import type { CommandApiPorts } from "../command-api.ts";
import { importResult } from "../imports/import-result.ts";
import { VaultImport } from "../imports/vault-import.ts";
import { idempotentWrite } from "../idempotent-write.ts";
import { actorOf, sendWrite, settleWrite, writeResponses } from "../write-answer.ts";

/** What the JSON of 50 MB of content can take, with paths and base64 around it. */
const IMPORT_BODY_LIMIT_BYTES = 72 * 1024 * 1024;

const importBody = z.object({
  files: z
    .array(z.object({ path: z.string().max(4_096), content: z.string() }))
    .min(1)
    .max(IMPORT_MAX_FILES, `at most ${IMPORT_MAX_FILES} files per import`),
});

export function importCommandRoutes(app: App, ports: CommandApiPorts): void {
  app.post(
    "/imports/obsidian",
    {
      bodyLimit: IMPORT_BODY_LIMIT_BYTES,
      config: { access: { scope: "pages:write" } },
      schema: { body: importBody, response: writeResponses({ 201: importResult }) },
    },
    async (request, reply) => {
      const actor = actorOf(request, ports.clock);
      const { files } = request.body;
      const bytes = contentBytes(files);
      if (bytes > IMPORT_MAX_TOTAL_BYTES) {
        throw new AppError("validation_failed", `body.files: ${bytes} bytes of content; an import takes at most ${IMPORT_MAX_TOTAL_BYTES} (50 MB)`);
      }
      const key = request.headers["idempotency-key"];
      const scope = `${actor.context.actorId}\n${typeof key === "string" ? key : randomUUID()}`;
      const answer = await idempotentWrite(ports, request, actor, async () => {
        const { result, position } = await new VaultImport(ports, actor, scope).run(files);
        // The counts are the write side's own: the same whether the read models show the import yet or not.
        return settleWrite(ports, position, { status: 201, present: async () => ({ body: result }), assemble: async () => ({ body: result }) });
      });
      return sendWrite(reply, answer);
    },
  );
}
