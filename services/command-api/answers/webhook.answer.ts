// A webhook as a write answers it: from the read models once they show the write; meanwhile the webhook as the
// write side holds it (`held`: the record as created, or as an update left it). The secret, shown once, is the
// creating route's to add (`.map`).
import { AppError } from "../../../shared/errors/app-error.ts";
import type { WebhookState } from "../../../shared/webhooks/webhook.decider.ts";
import { toWebhookResource } from "../../../shared/webhooks/webhook.resource.ts";
import { answerOf, type Answer, type AnswerPorts } from "./answer.ts";

type WebhookResource = ReturnType<typeof toWebhookResource>;

export const webhookAnswer = (
  webhookId: string,
  held: (ports: AnswerPorts) => Promise<WebhookResource>,
): Answer<WebhookResource> =>
  answerOf(
    async (ports) => {
      const webhook = await ports.views.webhooks.get(webhookId);
      if (!webhook) throw new AppError("not_found", "webhook not found");
      return { body: toWebhookResource(webhook) };
    },
    async (ports) => ({ body: await held(ports) }),
  );

/** An updated webhook as the write side holds it: the read models' record with the settings its decider now has. */
export const updatedWebhook =
  (webhookId: string, state: WebhookState, updatedAt: string) =>
  async (ports: AnswerPorts): Promise<WebhookResource> => {
    const before = await ports.views.webhooks.get(webhookId);
    if (!state.exists || !before) throw new AppError("not_found", "webhook not found");
    const disabledReason = state.active ? null : before.disabledReason;
    return { ...toWebhookResource(before), ...state.settings, active: state.active, disabledReason, updatedAt };
  };
