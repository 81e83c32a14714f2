// Internal routes a query node calls (never exposed through the gateway): the caller's own credentials are
// authenticated here as on any command route, which records a user's first sight and a token's use; the
// answer is a position the query node waits for before it answers its client.
import { z } from "zod";
import { EXPORTS_PATH, HEAD_PATH, SIGHTINGS_PATH } from "../../../shared/adapters/http/command-api.write-side.ts";
import { recordExport } from "../../../shared/exports/record-export.ts";
import { folderIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import {
  SHARE_LINK_VIEWS_PATH,
  shareLinkViewReportsBody,
} from "../../../shared/adapters/http/command-api.share-link-views.ts";
import { recordShareLinkViews } from "../../../shared/share-links/record-share-link-views.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { tokenOfPosition } from "../../../shared/position.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";

const positionReply = { 200: z.object({ position: z.string() }), "4xx": errorBody };
// The account the caller's credentials sign in to: a session's subject resolves to a new account once its own was erased.
const sightingReply = { 200: z.object({ position: z.string(), userId: z.string() }), "4xx": errorBody };

export function internalRoutes(app: App, ports: Pick<CommandApiPorts, "eventStore" | "views" | "clock">): void {
  app.post(
    SIGHTINGS_PATH,
    { config: { access: { anyCaller: true } }, schema: { response: sightingReply } },
    async (request) => ({
      position: tokenOfPosition(await ports.eventStore.headPosition()),
      userId: principalOf(request).user.id,
    }),
  );
  // A query node's batch of share-link views: each count carries its link's secret, checked here again.
  app.post(
    SHARE_LINK_VIEWS_PATH,
    { schema: { body: shareLinkViewReportsBody, response: { 204: z.null(), "4xx": errorBody } } },
    async (request, reply) => {
      await recordShareLinkViews(ports, request.body.reports, request.id);
      return reply.code(204).send(null);
    },
  );
  // A query node's export, recorded as its caller's (their credentials authenticated here) before it is sent.
  app.post(
    EXPORTS_PATH,
    {
      config: { access: { scope: "pages:read" } },
      schema: { querystring: z.object({ folderId: folderIdSchema.optional() }), response: positionReply },
    },
    async (request) => {
      const principal = principalOf(request);
      const context = {
        actorId: userIdSchema.parse(principal.user.id),
        tokenId: principal.tokenId,
        correlationId: request.id,
        now: ports.clock(),
      };
      return {
        position: tokenOfPosition(await recordExport(ports.eventStore, request.query.folderId ?? null, context)),
      };
    },
  );
  app.get(HEAD_PATH, { schema: { response: positionReply } }, async () => ({
    position: tokenOfPosition(await ports.eventStore.headPosition()),
  }));
}
