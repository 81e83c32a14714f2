// GET /webhooks, GET /webhooks/{id} and its delivery log: the session owner's webhooks only (another user's
// answers 404, as one that does not exist), without secrets.
import { z } from "zod";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { decodeCursor, pageOf } from "../../../shared/read-store/pagination.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import type { WebhookDeliveries } from "../../../shared/webhooks/webhook-deliveries.port.ts";
import { webhookIdSchema } from "../../../shared/webhooks/webhook.decider.ts";
import {
  deliveryResource,
  toDeliveryResource,
  toWebhookResource,
  webhookResource,
} from "../../../shared/webhooks/webhook.resource.ts";

export function webhookQueryRoutes(app: App, views: ReadModels, deliveries: Pick<WebhookDeliveries, "list">): void {
  const config = { access: { sessionOnly: true as const } };
  const params = z.object({ webhookId: webhookIdSchema });
  const owned = async (webhookId: string, userId: string) => {
    const webhook = await views.webhooks.get(webhookId);
    if (!webhook || webhook.ownerId !== userId) throw new AppError("not_found", "webhook not found");
    return webhook;
  };

  app.get(
    "/webhooks",
    { config, schema: { querystring: paginationQuery, response: { 200: listOf(webhookResource), "4xx": errorBody } } },
    async (request) => {
      const { limit, cursor } = request.query;
      const rows = await views.webhooks.listForOwner(principalOf(request).user.id, decodeCursor(cursor), limit + 1);
      const { rows: kept, nextCursor } = pageOf(rows, limit, (webhook) => ({ position: webhook.position, id: "" }));
      return { data: kept.map(toWebhookResource), nextCursor };
    },
  );

  app.get(
    "/webhooks/:webhookId",
    { config, schema: { params, response: { 200: webhookResource, "4xx": errorBody } } },
    async (request) => {
      return toWebhookResource(await owned(request.params.webhookId, principalOf(request).user.id));
    },
  );

  app.get(
    "/webhooks/:webhookId/deliveries",
    {
      config,
      schema: { params, querystring: paginationQuery, response: { 200: listOf(deliveryResource), "4xx": errorBody } },
    },
    async (request) => {
      const { webhookId } = request.params;
      await owned(webhookId, principalOf(request).user.id);
      const { limit, cursor } = request.query;
      const rows = await deliveries.list(webhookId, decodeCursor(cursor), limit + 1);
      const { rows: kept, nextCursor } = pageOf(rows, limit, (delivery) => ({ position: delivery.seq, id: "" }));
      return { data: kept.map(toDeliveryResource), nextCursor };
    },
  );
}
