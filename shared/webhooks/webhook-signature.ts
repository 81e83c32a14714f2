// Standard Webhooks signing: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`, keyed with the secret's
// decoded bytes; sent as webhook-id, webhook-timestamp (Unix seconds) and webhook-signature.
import { createHmac } from "node:crypto";
import { signingKeyOf } from "./webhook-secret.ts";

export interface SignedHeaders {
  readonly "webhook-id": string;
  readonly "webhook-timestamp": string;
  readonly "webhook-signature": string;
}

export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): SignedHeaders {
  const signature = createHmac("sha256", signingKeyOf(secret))
    .update(`${messageId}.${timestampSeconds}.${body}`)
    .digest("base64");
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": `v1,${signature}`,
  };
}
