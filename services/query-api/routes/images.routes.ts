// An uploaded image's bytes, with its type, a strong ETag (the bytes' SHA-256) and caching for the signed-in
// browser only. Every read checks view permission on the image's page: an image on a page the caller cannot
// see (or a deleted page) does not exist for them.
import { z } from "zod";
import { visiblePage } from "../../../shared/access/authorize.ts";
import { blobKeySchema } from "../../../shared/blobs/blob-store.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { ifNoneMatchHits } from "../../../shared/http/if-none-match.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { imageIdSchema } from "../../../shared/kernel/ids.ts";
import type { QueryApiPorts } from "../query-api-ports.ts";

/** The bytes behind an id never change, so a browser may keep them a year; `private`: never in a shared cache. */
const CACHE_CONTROL = "private, max-age=31536000, immutable";

export function imageQueryRoutes(app: App, ports: Pick<QueryApiPorts, "views" | "blobs">): void {
  app.get(
    "/images/:imageId",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        params: z.object({ imageId: imageIdSchema }),
        response: {
          200: z.unknown().describe("the image's bytes, with its own Content-Type"),
          304: z.null(),
          "4xx": errorBody,
        },
      },
    },
    async (request, reply) => {
      const image = await ports.views.images.get(request.params.imageId);
      if (!image) throw new AppError("not_found", "image not found");
      await visiblePage(ports.views, principalOf(request), image.pageId).catch((error: unknown) => {
        throw error instanceof AppError && error.code === "not_found"
          ? new AppError("not_found", "image not found")
          : error;
      });
      const etag = `"${image.sha256}"`;
      reply.header("etag", etag).header("cache-control", CACHE_CONTROL).header("x-content-type-options", "nosniff");
      if (ifNoneMatchHits(request.headers["if-none-match"], etag)) return reply.code(304).send(null);
      const blob = await ports.blobs.open(blobKeySchema.parse(image.filename));
      if (!blob) throw new AppError("internal", "the image's bytes are missing");
      return reply
        .type(image.mimeType)
        .header("content-length", String(blob.size))
        .header("content-disposition", `inline; filename="${image.filename}"`)
        .header("content-security-policy", "default-src 'none'; sandbox")
        .send(blob.stream);
    },
  );
}
