// POST, PATCH and DELETE /webhooks, and a delivery's retry and a replay: managed through a browser session.
// The secret is shown once, in the creation response; the event keeps it only sealed (webhook-secret.ts).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { effectivePermission } from "../../../shared/access/effective-permission.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { locationOf } from "../../../shared/http/locations.ts";
import { folderIdSchema } from "../../../shared/kernel/ids.ts";
import { positionTokenSchema, positionOfToken } from "../../../shared/position.ts";
import { webhookEventsSchema } from "../../../shared/webhooks/webhook-event-names.ts";
import { createdWebhookResource, webhookResource } from "../../../shared/webhooks/webhook.resource.ts";
import { newWebhookSecret } from "../../../shared/webhooks/webhook-secret.ts";
import { privateTargetOf, resolveHost } from "../../../shared/webhooks/registration-target.ts";
import { webhookCommands } from "../../../shared/webhooks/webhook.commands.ts";
import { webhookIdSchema } from "../../../shared/webhooks/webhook.decider.ts";
import type { CommandApiPorts, WebhookPorts } from "../command-api-ports.ts";
import { OneAtATime } from "../one-at-a-time.ts";
import { actorOf } from "../request-actor.ts";
import { updatedWebhook, webhookAnswer } from "../answers/webhook.answer.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";
import { nameField } from "../../../shared/kernel/text-fields.ts";

const urlField = z
  .string()
  .max(2048)
  .refine(
    (value) =>
      URL.canParse(value) &&
      ["http:", "https:"].includes(new URL(value).protocol) &&
      new URL(value).username === "" &&
      new URL(value).password === "",
    "must be an http or https URL without credentials",
  );
const descriptionField = nameField({ max: 500 }).nullable();

const createBody = z.object({
  url: urlField,
  events: webhookEventsSchema,
  description: descriptionField.default(null),
  folderId: folderIdSchema.nullable().default(null),
});
const updateBody = z
  .object({ url: urlField, events: webhookEventsSchema, description: descriptionField, active: z.boolean() })
  .partial()
  .refine((body) => Object.keys(body).length > 0, "name at least one of url, events, description, active");
const webhookParams = z.object({ webhookId: webhookIdSchema });
const accepted = z.object({ status: z.literal("accepted"), message: z.string() });

export function webhookCommandRoutes(app: App, ports: CommandApiPorts, webhooks: WebhookPorts): void {
  const config = { access: { sessionOnly: true as const } };
  const creations = new OneAtATime();
  const answer = answerWrites(ports);
  /** Refuses a URL the notifier would never call: a private address, unless the operator allows those. */
  const checkTarget = async (url: string) => {
    if (webhooks.allowPrivateNetworks) return;
    const refused = await privateTargetOf(url, webhooks.resolveHost ?? resolveHost);
    if (refused)
      throw new AppError(
        "validation_failed",
        `body.url: ${refused}; webhooks call public addresses only, unless the server sets WEBHOOK_ALLOW_PRIVATE_NETWORKS=true`,
      );
  };
  /** The caller's own webhook, or 404 as for one that does not exist. */
  const owned = async (webhookId: string, userId: string) => {
    const webhook = await ports.views.webhooks.get(webhookId);
    if (!webhook || webhook.ownerId !== userId) throw new AppError("not_found", "webhook not found");
    return webhook;
  };

  app.post(
    "/webhooks",
    { config, schema: { body: createBody, response: writeResponses({ 201: createdWebhookResource }) } },
    async (request, reply) =>
      answer(request, reply, async ({ actor: { context }, settle }) => {
        if (!webhooks.sealer) throw new AppError("unavailable", "webhooks need WEBHOOK_SECRET_KEY on this server");
        const { url, events, description, folderId } = request.body;
        await checkTarget(url);
        if (folderId !== null) {
          const folder = await ports.views.folders.get(folderId);
          if (
            !folder ||
            !effectivePermission(await ports.views.access.contextFor(context.actorId), { kind: "folder", ...folder })
          )
            throw new AppError("not_found", "folder not found");
        }
        const webhookId = webhookIdSchema.parse(randomUUID());
        const secret = newWebhookSecret();
        const command = {
          type: "CreateWebhook" as const,
          webhookId,
          ownerId: context.actorId,
          folderId,
          settings: { url, events, description },
          sealedSecret: webhooks.sealer.seal(webhookId, secret),
        };
        // The count and the creation it allows run one at a time per user, and the creation waits for the read
        // models, so concurrent requests of one user cannot pass the quota together.
        return creations.run(context.actorId, async () => {
          const { perUser } = webhooks.limits;
          if ((await ports.views.webhooks.listForOwner(context.actorId, null, perUser)).length >= perUser) {
            throw new AppError(
              "quota_exceeded",
              `at most ${perUser} webhooks per user: delete one before creating another`,
            );
          }
          const { position } = await webhookCommands.handle(ports.eventStore, webhookId, command, context);
          const now = context.now.toISOString();
          const created = {
            id: webhookId,
            url,
            events,
            description,
            folderId,
            active: true,
            disabledReason: null,
            createdAt: now,
            updatedAt: now,
          };
          return settle({
            position,
            status: 201,
            location: locationOf.webhook(webhookId),
            // The secret is never shown again, so a creation not yet visible answers it too, with the record as created.
            answer: webhookAnswer(webhookId, async () => created).map((webhook) => ({ ...webhook, secret })),
          });
        });
      }),
  );

  app.patch(
    "/webhooks/:webhookId",
    { config, schema: { params: webhookParams, body: updateBody, response: writeResponses({ 200: webhookResource }) } },
    async (request, reply) =>
      answer(request, reply, async ({ actor: { context } }) => {
        const { webhookId } = request.params;
        if (request.body.url !== undefined) await checkTarget(request.body.url);
        const { position, state } = await webhookCommands.handle(
          ports.eventStore,
          webhookId,
          { type: "UpdateWebhook", webhookId, ownerId: context.actorId, changes: request.body },
          context,
        );
        const held = updatedWebhook(webhookId, state, context.now.toISOString());
        return { position, status: 200, answer: webhookAnswer(webhookId, held) };
      }),
  );

  app.delete(
    "/webhooks/:webhookId",
    { config, schema: { params: webhookParams, response: writeResponses({ 204: z.null() }) } },
    async (request, reply) =>
      answer(request, reply, async ({ actor: { context } }) => {
        const { webhookId } = request.params;
        const { position } = await webhookCommands.handle(
          ports.eventStore,
          webhookId,
          { type: "DeleteWebhook", webhookId, ownerId: context.actorId },
          context,
        );
        return { position, status: 204 };
      }),
  );

  app.post(
    "/webhooks/:webhookId/deliveries/:deliveryId/retry",
    {
      config,
      schema: {
        params: webhookParams.extend({ deliveryId: z.uuid() }),
        response: { 202: accepted, "4xx": errorBody, "5xx": errorBody },
      },
    },
    async (request, reply) => {
      const { context } = actorOf(request, ports.clock);
      const { webhookId, deliveryId } = request.params;
      await owned(webhookId, context.actorId);
      if (!(await webhooks.deliveries.retry(webhookId, deliveryId, context.now.toISOString())))
        throw new AppError("not_found", "delivery not found");
      return reply
        .code(202)
        .send({ status: "accepted", message: "the delivery is queued to be sent again with the same webhook-id" });
    },
  );

  app.post(
    "/webhooks/:webhookId/replay",
    {
      config,
      schema: {
        params: webhookParams,
        body: z.object({ after: positionTokenSchema }),
        response: { 202: accepted, "4xx": errorBody, "5xx": errorBody },
      },
    },
    async (request, reply) => {
      const { context } = actorOf(request, ports.clock);
      const { webhookId } = request.params;
      await owned(webhookId, context.actorId);
      const after = positionOfToken(request.body.after);
      const upTo = await ports.projection.current();
      const job = { id: randomUUID(), webhookId, cursor: after, upTo, createdAt: context.now.toISOString() };
      if (after < upTo && !(await webhooks.deliveries.addReplay(job, webhooks.limits.replaysPerWebhook))) {
        throw new AppError(
          "quota_exceeded",
          `this webhook already has ${webhooks.limits.replaysPerWebhook === 1 ? "a replay" : `${webhooks.limits.replaysPerWebhook} replays`} under way: ask again when it has been queued`,
        );
      }
      return reply.code(202).send({
        status: "accepted",
        message: "every matching event after that position is queued to be delivered again, each with a new webhook-id",
      });
    },
  );
}
