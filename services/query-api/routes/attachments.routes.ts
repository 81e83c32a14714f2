// A page's attachments: the list (newest first, paged) and each one's bytes. Reading needs view permission on
// the page: an attachment of a page the caller cannot see (or of a deleted page, or one deleted itself) does
// not exist for them.
import { z } from "zod";
import { visiblePage } from "../../../shared/access/authorize.ts";
import type { Principal } from "../../../shared/auth/principal.ts";
import { attachmentResource } from "../../../shared/attachments/attachment.resource.ts";
import { listAttachments } from "../../../shared/attachments/list-attachments.ts";
import type { AttachmentRecord } from "../../../shared/attachments/attachments.view.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { attachmentIdSchema, pageIdSchema } from "../../../shared/kernel/ids.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import { serveAttachment } from "../attachments/serve-attachment.ts";
import type { QueryApiPorts } from "../query-api-ports.ts";

/** The live attachment, if the caller may view its page; otherwise 404, the same as for an id never used. */
async function readableAttachment(
  views: ReadModels,
  principal: Principal,
  attachmentId: string,
): Promise<AttachmentRecord> {
  const attachment = await views.attachments.get(attachmentId);
  if (!attachment || attachment.deletedAt !== null) throw new AppError("not_found", "attachment not found");
  await visiblePage(views, principal, attachment.pageId).catch((error: unknown) => {
    throw error instanceof AppError && error.code === "not_found"
      ? new AppError("not_found", "attachment not found")
      : error;
  });
  return attachment;
}

export function attachmentQueryRoutes(app: App, ports: Pick<QueryApiPorts, "views" | "blobs">): void {
  app.get(
    "/pages/:pageId/attachments",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        params: z.object({ pageId: pageIdSchema }),
        querystring: paginationQuery,
        response: { 200: listOf(attachmentResource), "4xx": errorBody },
      },
    },
    async (request) => {
      const { cursor, limit } = request.query;
      return listAttachments(ports.views, principalOf(request), request.params.pageId, { cursor, limit });
    },
  );

  app.get(
    "/attachments/:attachmentId",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        params: z.object({ attachmentId: attachmentIdSchema }),
        response: {
          200: z.unknown().describe("the file's bytes"),
          206: z.unknown().describe("the bytes of the one range asked for"),
          304: z.null(),
          "4xx": errorBody,
        },
      },
    },
    async (request, reply) =>
      serveAttachment(
        request,
        reply,
        ports.blobs,
        await readableAttachment(ports.views, principalOf(request), request.params.attachmentId),
      ),
  );
}
