// GET /exports/obsidian: a vault of the caller's pages as a zip, streamed (services/query-api/exports/).
import { z } from "zod";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { folderIdSchema } from "../../../shared/kernel/ids.ts";
import { ExportSlots } from "../exports/export-slots.ts";
import { ObsidianExport } from "../exports/obsidian-export.ts";
import { ZipStream } from "../exports/zip-stream.ts";
import type { QueryApiPorts } from "../query-api-ports.ts";
import { runAsCaller, userCaller } from "../../../shared/workers/pool-caller.ts";

export function exportQueryRoutes(
  app: App,
  ports: Pick<QueryApiPorts, "views" | "blobs" | "pool" | "exports" | "writeSide">,
): void {
  const slots = new ExportSlots(ports.exports);
  app.get(
    "/exports/obsidian",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        querystring: z.object({
          folderId: folderIdSchema
            .optional()
            .describe(
              "the folder to export (its contents are the vault's root); the caller's whole workspace when left out",
            ),
        }),
        response: {
          200: z.unknown().describe("a zip archive: the vault (application/zip)"),
          "4xx": errorBody,
          "5xx": errorBody,
        },
      },
    },
    // The export's tasks (parsing, compression) take the worker pool's turns as this user's, to the last batch.
    (request, reply) =>
      runAsCaller(userCaller(principalOf(request).user.id), async () => {
        const userId = principalOf(request).user.id;
        const release = slots.take(userId);
        let vault: ObsidianExport;
        try {
          const context = await ports.views.access.contextFor(userId);
          vault = await ObsidianExport.plan(ports, {
            context,
            folderId: request.query.folderId ?? null,
            origin: `${request.protocol}://${request.host}`,
          });
          // Recorded for the workspace's audit trail once the folder is known to be the caller's to read.
          const { authorization, cookie } = request.headers;
          await ports.writeSide.recordExport(
            {
              userId,
              tokenId: principalOf(request).tokenId,
              credentials: {
                ...(authorization === undefined ? {} : { authorization }),
                ...(cookie === undefined ? {} : { cookie }),
              },
            },
            request.query.folderId ?? null,
            request.id,
          );
        } catch (error) {
          release();
          throw error;
        }
        const zip = new ZipStream();
        zip.output.once("close", release);
        // The answer's headers are sent before the notes are read: a failure from here on cuts the download short.
        vault.write(zip).catch((error: unknown) => {
          request.log.error({ event: "export.failed", err: error }, "export failed");
          zip.output.destroy(error instanceof Error ? error : new Error("export failed"));
        });
        return reply
          .type("application/zip")
          .header("content-disposition", 'attachment; filename="vault.zip"')
          .header("cache-control", "private, no-store")
          .send(zip.output);
      }),
  );
}
