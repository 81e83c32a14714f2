// A webhook registration on stream webhook-<id>: created, changed, disabled (by the notifier, with a reason)
// and deleted by its owner. The signing secret is in WebhookCreated only sealed (webhook-secret.ts): the
// notifier must sign after any restart, so the secret has to live somewhere durable, and no event, history
// row, log line or feed may show it in the clear.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { folderIdSchema, userIdSchema, type FolderId, type UserId } from "../kernel/ids.ts";
import { webhookEventsSchema } from "./webhook-event-names.ts";

export const webhookIdSchema = z.uuid().brand<"WebhookId">();
export type WebhookId = z.infer<typeof webhookIdSchema>;
export type WebhookEvents = z.infer<typeof webhookEventsSchema>;

const settings = {
  url: z.string(),
  events: webhookEventsSchema,
  description: z.string().nullable(),
};

export const webhookEventSchemas = [
  z.object({
    type: z.literal("WebhookCreated"),
    data: z.object({
      webhookId: webhookIdSchema,
      ownerId: userIdSchema,
      folderId: folderIdSchema.nullable(),
      ...settings,
      sealedSecret: z.string().regex(/^v1\./),
    }),
  }),
  z.object({
    type: z.literal("WebhookUpdated"),
    data: z.object({ webhookId: webhookIdSchema, ...settings, active: z.boolean() }),
  }),
  z.object({ type: z.literal("WebhookDisabled"), data: z.object({ webhookId: webhookIdSchema, reason: z.string() }) }),
  z.object({ type: z.literal("WebhookDeleted"), data: z.object({ webhookId: webhookIdSchema }) }),
] as const;
export type WebhookEvent = z.infer<(typeof webhookEventSchemas)[number]>;

interface WebhookSettings {
  readonly url: string;
  readonly events: WebhookEvents;
  readonly description: string | null;
}

export type WebhookCommand =
  | {
      type: "CreateWebhook";
      webhookId: WebhookId;
      ownerId: UserId;
      folderId: FolderId | null;
      settings: WebhookSettings;
      sealedSecret: string;
    }
  | {
      type: "UpdateWebhook";
      webhookId: WebhookId;
      ownerId: UserId;
      changes: Partial<WebhookSettings> & { active?: boolean };
    }
  | { type: "DisableWebhook"; webhookId: WebhookId; reason: string }
  | { type: "DeleteWebhook"; webhookId: WebhookId; ownerId: UserId };

export type WebhookState =
  { exists: false } | { exists: true; deleted: boolean; ownerId: UserId; settings: WebhookSettings; active: boolean };

export const webhookStream = (webhookId: string): string => `webhook-${webhookId}`;

function owned(state: WebhookState, ownerId: UserId): Extract<WebhookState, { exists: true }> {
  if (!state.exists || state.deleted || state.ownerId !== ownerId) throw new AppError("not_found", "webhook not found");
  return state;
}

export const webhookDecider: Decider<WebhookCommand, WebhookState, WebhookEvent> = {
  initialState: { exists: false },
  decide(command, state) {
    switch (command.type) {
      case "CreateWebhook": {
        if (state.exists) throw new AppError("conflict", "webhook already exists");
        const { webhookId, ownerId, folderId, settings: given, sealedSecret } = command;
        return [{ type: "WebhookCreated", data: { webhookId, ownerId, folderId, ...given, sealedSecret } }];
      }
      case "UpdateWebhook": {
        const current = owned(state, command.ownerId);
        const { active = current.active, ...changes } = command.changes;
        const next = { ...current.settings, ...changes };
        const same =
          active === current.active &&
          next.url === current.settings.url &&
          next.description === current.settings.description &&
          JSON.stringify(next.events) === JSON.stringify(current.settings.events);
        if (same) return [];
        return [{ type: "WebhookUpdated", data: { webhookId: command.webhookId, ...next, active } }];
      }
      case "DisableWebhook":
        if (!state.exists || state.deleted || !state.active) return [];
        return [{ type: "WebhookDisabled", data: { webhookId: command.webhookId, reason: command.reason } }];
      case "DeleteWebhook":
        owned(state, command.ownerId);
        return [{ type: "WebhookDeleted", data: { webhookId: command.webhookId } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case "WebhookCreated": {
        const { ownerId, url, events, description } = event.data;
        return { exists: true, deleted: false, ownerId, settings: { url, events, description }, active: true };
      }
      case "WebhookUpdated": {
        if (!state.exists) return state;
        const { url, events, description, active } = event.data;
        return { ...state, settings: { url, events, description }, active };
      }
      case "WebhookDisabled":
        return state.exists ? { ...state, active: false } : state;
      case "WebhookDeleted":
        return state.exists ? { ...state, deleted: true, active: false } : state;
    }
  },
};
