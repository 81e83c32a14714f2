// The names a webhook subscribes to, dotted and lower case (webhook-event-name-of.ts says which domain event
// each one stands for), and the schema of a subscription.
import { z } from "zod";

const WEBHOOK_EVENT_NAMES = [
  "page.created",
  "page.updated",
  "page.moved",
  "page.deleted",
  "page.restored",
  "folder.created",
  "folder.updated",
  "folder.moved",
  "folder.deleted",
  "comment.created",
  "comment.updated",
  "comment.deleted",
  "thread.resolved",
  "thread.reopened",
  "share.granted",
  "share.revoked",
  "image.uploaded",
  "share.link_created",
  "share.link_updated",
  "share.link_revoked",
  "group.created",
  "group.updated",
  "group.deleted",
  "group.member_added",
  "group.member_removed",
  "notification.created",
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

const webhookEventNameSchema = z.enum(WEBHOOK_EVENT_NAMES);
/**
 * A subscription: a non-empty list of names, or `["*"]` for every one of them. One array schema (not a union with
 * a one-item tuple) so that the OpenAPI document gives the array its `items`, as generated clients need.
 */
export const webhookEventsSchema = z
  .array(z.union([z.literal("*"), webhookEventNameSchema]))
  .min(1)
  .refine((names) => !names.includes("*") || names.length === 1, '"*" stands alone: ["*"] or a list of event names');

export function subscribesTo(events: readonly string[], name: WebhookEventName): boolean {
  return events.includes("*") || events.includes(name);
}
