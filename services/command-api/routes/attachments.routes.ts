// Attachments of a page: POST uploads a file of any type (multipart/form-data, `file` and an optional `name`),
// streamed into the blob store within ATTACHMENT_MAX_BYTES; DELETE records its removal in the page's history
// (the bytes go when the page is purged). Both need pages:write and edit permission on the page. The bytes are
// stored first and AttachmentUploaded recorded after, so no record points at missing bytes; the upload holds its
// size of the page owner's stored-bytes quota from then until it answers, and its declared size while it streams.
import { randomUUID } from "node:crypto";
import multipart from "@fastify/multipart";
import { z } from "zod";
import { pageAccess } from "../../../shared/access/authorize.ts";
import { attachmentBlobKey } from "../../../shared/attachments/attachment-blobs.ts";
import { attachmentCommands } from "../../../shared/attachments/attachment.commands.ts";
import {
  attachmentResource,
  attachmentUploadForm,
  toAttachmentResource,
} from "../../../shared/attachments/attachment.resource.ts";
import { blobKeySchema } from "../../../shared/blobs/blob-store.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { locationOf } from "../../../shared/http/locations.ts";
import { attachmentIdSchema, pageIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { attachmentAnswer } from "../answers/upload.answer.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";
import { declaredFileBytes, storeUploadForm } from "./attachment-form.ts";
import { closeAfterAnswer } from "./unread-body.ts";

/** When a file has no name at all, it is shown under this one. */
const UNNAMED = "attachment";

export async function attachmentCommandRoutes(app: App, ports: CommandApiPorts): Promise<void> {
  const answer = answerWrites(ports);
  // In a scope of its own: only this route (and the image upload, in its own) takes multipart bodies.
  await app.register(async (scope: App) => {
    // The limit is counted by the route, chunk by chunk, rather than by the plugin.
    await scope.register(multipart, { throwFileSizeLimit: false });
    scope.post(
      "/pages/:pageId/attachments",
      {
        config: { access: { scope: "pages:write" }, form: attachmentUploadForm },
        schema: {
          params: z.object({ pageId: pageIdSchema }),
          consumes: ["multipart/form-data"],
          response: writeResponses({ 201: attachmentResource }),
        },
      },
      async (request, reply) =>
        answer(request, reply, async ({ actor, once }) => {
          const { pageId } = request.params;
          // Permission first: a caller who may not attach here is not made to send 50 MB to learn it.
          const { page } = await pageAccess("edit")(ports.views, actor.principal, pageId);
          const attachmentId = attachmentIdSchema.parse(randomUUID());
          const key = attachmentBlobKey(attachmentId);
          // The declared size holds quota while the file streams: one that cannot fit is refused before it is read.
          const streaming = await ports.quotas.blobBytes
            .reserve(page.ownerId, declaredFileBytes(request, ports.attachmentMaxBytes))
            .catch((error: unknown) => {
              if (!(error instanceof AppError)) throw error;
              closeAfterAnswer(request, reply);
              throw new AppError(error.code, error.message, { connection: "close" });
            });
          const upload = await storeUploadForm(request, ports.blobs, key, ports.attachmentMaxBytes)
            .catch((error: unknown) => {
              if (error instanceof AppError && error.code === "payload_too_large") closeAfterAnswer(request, reply);
              throw error;
            })
            .finally(streaming);
          const filename = upload.name ?? (upload.originalName || UNNAMED);
          const fingerprintBody = { name: filename, originalName: upload.originalName, sha256: upload.sha256 };
          let recorded = false;
          try {
            // The bytes count against the workspace's quota from before they are recorded until the answer.
            return await ports.quotas.blobBytes.withReserved(page.ownerId, upload.size, () =>
              once(
                async () => {
                  const attachment = {
                    attachmentId,
                    pageId: pageIdSchema.parse(pageId),
                    uploaderId: userIdSchema.parse(actor.context.actorId),
                    filename,
                    originalName: upload.originalName,
                    mimeType: upload.mimeType,
                    size: upload.size,
                    sha256: upload.sha256,
                  };
                  const { position } = await attachmentCommands.handle(
                    ports.eventStore,
                    attachmentId,
                    { type: "RecordAttachmentUpload", attachment },
                    actor.context,
                  );
                  recorded = true;
                  const { attachmentId: id, ...fields } = attachment;
                  const created = toAttachmentResource({
                    id,
                    ...fields,
                    createdAt: actor.context.now.toISOString(),
                    position: position ?? 0,
                    deletedAt: null,
                  });
                  return {
                    position,
                    status: 201,
                    location: locationOf.attachment(attachmentId),
                    answer: attachmentAnswer(pageId, created),
                  };
                },
                { fingerprintBody, pageId },
              ),
            );
          } finally {
            // A replayed key (or a refused one) answers without this upload: its bytes belong to no record.
            if (!recorded) await ports.blobs.delete(blobKeySchema.parse(key));
          }
        }),
    );
  });

  app.delete(
    "/pages/:pageId/attachments/:attachmentId",
    {
      config: { access: { scope: "pages:write" } },
      schema: {
        params: z.object({ pageId: pageIdSchema, attachmentId: attachmentIdSchema }),
        response: writeResponses({ 204: z.null() }),
      },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { pageId, attachmentId } = request.params;
        await pageAccess("edit")(ports.views, actor.principal, pageId);
        const { position } = await attachmentCommands.handle(
          ports.eventStore,
          attachmentId,
          { type: "DeleteAttachment", pageId },
          actor.context,
        );
        return { position, status: 204 };
      }),
  );
}
