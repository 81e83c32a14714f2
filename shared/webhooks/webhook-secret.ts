// Webhook signing secrets: `whsec_` + base64 of 32 random bytes, shown once. The event that creates a webhook
// carries the secret sealed with AES-256-GCM under a key derived (HKDF-SHA256) from the server's key material
// (AUTH_SESSION_SECRET, the embedded session secret, or WEBHOOK_SECRET_KEY), bound to the webhook's id: the
// notifier can open it after any restart, while the event log, history, read models and logs hold only
// ciphertext. Whoever holds the key material can mint sessions anyway, so it protects nothing less.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const PREFIX = "whsec_";
const SEALED_VERSION = "v1";

export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString("base64")}`;
}

/** The bytes an HMAC is keyed with: the base64 after the `whsec_` prefix, decoded. */
export function signingKeyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
}

export class WebhookSecretSealer {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = Buffer.from(hkdfSync("sha256", keyMaterial, "workspace-webhooks", "webhook secret sealing v1", 32));
  }

  seal(webhookId: string, secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(webhookId));
    const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final(), cipher.getAuthTag()]);
    return `${SEALED_VERSION}.${iv.toString("base64url")}.${sealed.toString("base64url")}`;
  }

  /** Throws when the sealed value was not sealed for this webhook under this key. */
  open(webhookId: string, sealed: string): string {
    const [version, iv, body] = sealed.split(".");
    if (version !== SEALED_VERSION || !iv || !body) throw new Error("not a sealed webhook secret");
    const bytes = Buffer.from(body, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(webhookId));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString("utf8");
  }
}
