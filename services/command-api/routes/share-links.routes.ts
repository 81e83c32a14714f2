// POST /pages/{pageId}/share-links and /folders/{folderId}/share-links (sharing needs admin on the page or
// folder), PATCH and DELETE /share-links/{id} (whoever may share the page or folder now). The secret is made
// here, shown once in the creation answer and recorded only as its SHA-256; a password only as its scrypt hash.
// No Idempotency-Key: a replayed answer would have to store the secret it carries.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { locationOf } from "../../../shared/http/locations.ts";
import { folderIdSchema, pageIdSchema, shareLinkIdSchema } from "../../../shared/kernel/ids.ts";
import { atLeast } from "../../../shared/kernel/permissions.ts";
import { managedShareLink } from "../../../shared/share-links/manage-share-link.ts";
import { hashSharePassword } from "../../../shared/share-links/share-link-password.ts";
import {
  hashShareLinkSecret,
  newShareLinkSecret,
  shareLinkUrl,
} from "../../../shared/share-links/share-link-secret.ts";
import { shareLinkCommands } from "../../../shared/share-links/share-link.commands.ts";
import type { PasswordChange, ShareLinkEntityType } from "../../../shared/share-links/share-link.decider.ts";
import { shareLinkResource, toShareLinkResource } from "../../../shared/share-links/share-link.resource.ts";
import { visibleEntity } from "../../../shared/sharing/shared-entity.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import type { Actor } from "../../../shared/commands/guarded-command.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites, type Written } from "../write-route.ts";

const expiresAtField = z.iso.datetime({ offset: true }).nullable();
const passwordField = z.string().min(1).max(200).nullable();
const createBody = z.object({
  expiresAt: expiresAtField.default(null),
  password: passwordField.default(null),
  allowIndexing: z.boolean().default(false),
});
const changeBody = z
  .object({ expiresAt: expiresAtField, password: passwordField, allowIndexing: z.boolean() })
  .partial()
  .refine((body) => Object.keys(body).length > 0, "name at least one of expiresAt, password, allowIndexing");
const linkParams = z.object({ linkId: shareLinkIdSchema });

/** An expiry in the past would make a link dead on arrival: refused, as for tokens. */
function futureExpiry(expiresAt: string | null, now: Date): string | null {
  if (expiresAt === null) return null;
  if (Date.parse(expiresAt) <= now.getTime())
    throw new AppError("validation_failed", "body.expiresAt: must be in the future");
  return new Date(expiresAt).toISOString();
}

export function shareLinkCommandRoutes(
  app: App,
  ports: CommandApiPorts & { readonly publicBaseUrl: string | null },
): void {
  const config = { access: { scope: "pages:write" as const } };
  const answer = answerWrites(ports);
  const present =
    (linkId: string, url: string | null = null) =>
    async () => {
      const link = await ports.views.shareLinks.get(linkId);
      if (!link) throw new AppError("internal", "share link was not recorded");
      return { body: toShareLinkResource(link, url) };
    };

  const create = async (
    { principal, context }: Actor,
    entityType: ShareLinkEntityType,
    entityId: string,
    body: z.infer<typeof createBody>,
  ): Promise<Written> => {
    const { permission } = await visibleEntity(ports.views, principal, entityType, entityId);
    if (!atLeast(permission, "admin")) throw new AppError("forbidden", `you may not share this ${entityType}`);
    const expiresAt = futureExpiry(body.expiresAt, context.now);
    const linkId = shareLinkIdSchema.parse(randomUUID());
    const secret = newShareLinkSecret();
    const command = {
      type: "CreateShareLink" as const,
      linkId,
      entityType,
      entityId,
      createdBy: context.actorId,
      secretHash: hashShareLinkSecret(secret),
      expiresAt,
      passwordHash: body.password === null ? null : await hashSharePassword(body.password),
      allowIndexing: body.allowIndexing,
    };
    const { position } = await shareLinkCommands.handle(ports.eventStore, linkId, command, context);
    const url = shareLinkUrl(ports.publicBaseUrl, secret);
    // The secret is never shown again, so a creation not yet visible answers its url too, with the link as created.
    const created = {
      id: linkId,
      url,
      entityType,
      entityId,
      expiresAt,
      passwordProtected: command.passwordHash !== null,
      allowIndexing: body.allowIndexing,
      createdBy: context.actorId,
      createdAt: context.now.toISOString(),
      revokedAt: null,
      views: 0,
      lastViewedAt: null,
    };
    return {
      position,
      status: 201,
      location: locationOf.shareLink(linkId),
      present: present(linkId, url),
      assemble: async () => ({ body: created }),
    };
  };
  const responses = writeResponses({ 201: shareLinkResource });

  app.post(
    "/pages/:pageId/share-links",
    { config, schema: { params: z.object({ pageId: pageIdSchema }), body: createBody, response: responses } },
    async (request, reply) =>
      answer(request, reply, ({ actor }) => create(actor, "page", request.params.pageId, request.body)),
  );
  app.post(
    "/folders/:folderId/share-links",
    { config, schema: { params: z.object({ folderId: folderIdSchema }), body: createBody, response: responses } },
    async (request, reply) =>
      answer(request, reply, ({ actor }) => create(actor, "folder", request.params.folderId, request.body)),
  );

  app.patch(
    "/share-links/:linkId",
    { config, schema: { params: linkParams, body: changeBody, response: writeResponses({ 200: shareLinkResource }) } },
    async (request, reply) =>
      answer(request, reply, async ({ actor: { principal, context } }) => {
        const { linkId } = request.params;
        const link = await managedShareLink(ports.views, principal, linkId, "change");
        if (link.revokedAt !== null) throw new AppError("not_found", "share link not found");
        const { expiresAt, password, allowIndexing } = request.body;
        const passwordChange: PasswordChange =
          password === undefined
            ? { kind: "keep" }
            : password === null
              ? { kind: "remove" }
              : { kind: "set", hash: await hashSharePassword(password) };
        const command = {
          type: "ChangeShareLink" as const,
          linkId,
          password: passwordChange,
          ...(expiresAt === undefined ? {} : { expiresAt: futureExpiry(expiresAt, context.now) }),
          ...(allowIndexing === undefined ? {} : { allowIndexing }),
        };
        const { position, state } = await shareLinkCommands.handle(ports.eventStore, linkId, command, context);
        // The link as it was read, with the settings the write side now holds.
        const assemble = async () => {
          if (!state.exists) throw new AppError("not_found", "share link not found");
          return {
            body: {
              ...toShareLinkResource(link),
              expiresAt: state.expiresAt,
              passwordProtected: state.passwordHash !== null,
              allowIndexing: state.allowIndexing,
            },
          };
        };
        return { position, status: 200, present: present(linkId), assemble };
      }),
  );

  app.delete(
    "/share-links/:linkId",
    { config, schema: { params: linkParams, response: writeResponses({ 204: z.null() }) } },
    async (request, reply) =>
      answer(request, reply, async ({ actor: { principal, context } }) => {
        const { linkId } = request.params;
        await managedShareLink(ports.views, principal, linkId, "revoke");
        const { position } = await shareLinkCommands.handle(
          ports.eventStore,
          linkId,
          { type: "RevokeShareLink", linkId },
          context,
        );
        return { position, status: 204 };
      }),
  );
}
