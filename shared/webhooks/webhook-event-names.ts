// The names a webhook subscribes to, dotted and lower case, and which domain event each one stands for: events
// of pages, folders, comment threads, shares and images, each of which names the page or folder whose
// permission decides who may see it.
import { z } from "zod";
import type { DomainEvent } from "../events.ts";

export const WEBHOOK_EVENT_NAMES = [
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
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

export const webhookEventNameSchema = z.enum(WEBHOOK_EVENT_NAMES);
/**
 * A subscription: a non-empty list of names, or `["*"]` for every one of them. One array schema (not a union with
 * a one-item tuple) so that the OpenAPI document gives the array its `items`, as generated clients need.
 */
export const webhookEventsSchema = z
  .array(z.union([z.literal("*"), webhookEventNameSchema]))
  .min(1)
  .refine((names) => !names.includes("*") || names.length === 1, '"*" stands alone: ["*"] or a list of event names');

/** The webhook name of a domain event, or null when webhooks do not carry it. */
export function webhookEventNameOf(event: DomainEvent): WebhookEventName | null {
  switch (event.type) {
    case "PageCreated":
      return "page.created";
    case "PageRenamed":
    case "PageIconChanged":
    case "PageContentReplaced":
      return "page.updated";
    case "PageMoved":
      return "page.moved";
    case "PageDeleted":
      return "page.deleted";
    case "PageRestored":
      return "page.restored";
    case "FolderCreated":
      return "folder.created";
    case "FolderRenamed":
    case "FolderIconChanged":
      return "folder.updated";
    case "FolderMoved":
      return "folder.moved";
    case "FolderDeleted":
      return "folder.deleted";
    case "CommentAdded":
      return "comment.created";
    case "CommentEdited":
      return "comment.updated";
    case "CommentDeleted":
      return "comment.deleted";
    case "ThreadResolved":
      return "thread.resolved";
    case "ThreadReopened":
      return "thread.reopened";
    case "AccessGranted":
      return "share.granted";
    case "AccessRevoked":
      return "share.revoked";
    case "ImageUploaded":
      return "image.uploaded";
    case "ShareLinkCreated":
      return "share.link_created";
    case "ShareLinkChanged":
      return "share.link_updated";
    case "ShareLinkRevoked":
      return "share.link_revoked";
    default:
      return null;
  }
}

export function subscribesTo(events: readonly string[], name: WebhookEventName): boolean {
  return events.includes("*") || events.includes(name);
}
