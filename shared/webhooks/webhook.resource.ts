// The webhook and delivery records the API shows; `secret` appears only in the creation response.
import { z } from "zod";
import { tokenOfPosition } from "../position.ts";
import type { DeliveryRecord } from "./webhook-deliveries.port.ts";
import { webhookEventsSchema } from "./webhook-event-names.ts";
import type { WebhookRecord } from "./webhooks.view.ts";

export const webhookResource = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: webhookEventsSchema,
    description: z.string().nullable(),
    folderId: z.uuid().nullable(),
    active: z.boolean(),
    disabledReason: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Webhook", description: "A webhook's record, without its signing secret" });
export const createdWebhookResource = webhookResource
  .extend({ secret: z.string().meta({ description: "The signing secret, shown in this answer only" }) })
  .meta({ id: "CreatedWebhook", description: "A new webhook's record with its signing secret" });

export function toWebhookResource(webhook: WebhookRecord): z.infer<typeof webhookResource> {
  const { id, url, events, description, folderId, active, disabledReason, createdAt, updatedAt } = webhook;
  return { id, url, events, description, folderId, active, disabledReason, createdAt, updatedAt };
}

export const deliveryResource = z
  .object({
    id: z.uuid(),
    eventId: z.string(),
    type: z.string(),
    position: z.string(),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int(),
    lastResponseStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    deliveredAt: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
  })
  .meta({ id: "WebhookDelivery", description: "One delivery of an event to a webhook" });

export function toDeliveryResource(delivery: DeliveryRecord): z.infer<typeof deliveryResource> {
  const {
    id,
    eventId,
    type,
    position,
    status,
    attempts,
    lastResponseStatus,
    lastError,
    createdAt,
    deliveredAt,
    nextAttemptAt,
  } = delivery;
  return {
    id,
    eventId,
    type,
    position: tokenOfPosition(position),
    status,
    attempts,
    lastResponseStatus,
    lastError,
    createdAt,
    deliveredAt,
    nextAttemptAt,
  };
}
