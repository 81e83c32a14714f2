// POST /pages/{pageId}/share-links and /folders/{folderId}/share-links, PATCH and DELETE /share-links/{id}: each
// calls its capability function in shared/share-links/ and answers the link. The secret is shown once, in the
// creation answer. No Idempotency-Key: a replayed answer would have to store the secret it carries.
import { z } from "zod";
import type { App } from "../../../shared/http/create-app.ts";
import { locationOf } from "../../../shared/http/locations.ts";
import { folderIdSchema, pageIdSchema, shareLinkIdSchema } from "../../../shared/kernel/ids.ts";
import { changeShareLink } from "../../../shared/share-links/change-share-link.ts";
import { createShareLink, type ShareLinkTarget } from "../../../shared/share-links/create-share-link.ts";
import { revokeShareLink } from "../../../shared/share-links/revoke-share-link.ts";
import { changeShareLinkFields, createShareLinkFields } from "../../../shared/share-links/share-link.fields.ts";
import { shareLinkResource } from "../../../shared/share-links/share-link.resource.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import type { Actor } from "../../../shared/commands/guarded-command.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";
import { shareLinkAnswer } from "../answers/share-link.answer.ts";

const linkParams = z.object({ linkId: shareLinkIdSchema });

export function shareLinkCommandRoutes(
  app: App,
  ports: CommandApiPorts & { readonly publicBaseUrl: string | null },
): void {
  const config = { access: { scope: "pages:write" as const } };
  const answer = answerWrites(ports);

  const create = async (actor: Actor, target: ShareLinkTarget, body: z.output<typeof createShareLinkFields>) => {
    const { id, position, link } = await createShareLink(ports, actor, target, body);
    // The secret is never shown again, so a creation not yet visible answers its url too, with the link as created.
    return {
      position,
      status: 201,
      location: locationOf.shareLink(id),
      answer: shareLinkAnswer(id, () => link, link.url),
    };
  };
  const responses = writeResponses({ 201: shareLinkResource });

  app.post(
    "/pages/:pageId/share-links",
    {
      config,
      schema: { params: z.object({ pageId: pageIdSchema }), body: createShareLinkFields, response: responses },
    },
    async (request, reply) =>
      answer(request, reply, ({ actor }) =>
        create(actor, { entityType: "page", entityId: request.params.pageId }, request.body),
      ),
  );
  app.post(
    "/folders/:folderId/share-links",
    {
      config,
      schema: { params: z.object({ folderId: folderIdSchema }), body: createShareLinkFields, response: responses },
    },
    async (request, reply) =>
      answer(request, reply, ({ actor }) =>
        create(actor, { entityType: "folder", entityId: request.params.folderId }, request.body),
      ),
  );

  app.patch(
    "/share-links/:linkId",
    {
      config,
      schema: {
        params: linkParams,
        body: changeShareLinkFields,
        response: writeResponses({ 200: shareLinkResource }),
      },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { linkId } = request.params;
        const { position, asWritten } = await changeShareLink(ports, actor, linkId, request.body);
        return { position, status: 200, answer: shareLinkAnswer(linkId, asWritten) };
      }),
  );

  app.delete(
    "/share-links/:linkId",
    { config, schema: { params: linkParams, response: writeResponses({ 204: z.null() }) } },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { position } = await revokeShareLink(ports, actor, request.params.linkId);
        return { position, status: 204 };
      }),
  );
}
