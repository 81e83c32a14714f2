// Webhook commands bound once: the webhook decider on stream webhook-<id>.
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import { webhookDecider, webhookEventSchemas, webhookStream, type WebhookId } from "./webhook.decider.ts";

export const webhookCommands = deciderCommandHandler({
  decider: webhookDecider,
  streamOf: (id: WebhookId) => webhookStream(id),
  eventSchemas: webhookEventSchemas,
});
