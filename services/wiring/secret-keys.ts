// What the server signs or seals with a secret of its own, derived from the session secret (AUTH_SESSION_SECRET,
// or the one the embedded server keeps in DATA_DIR) unless a key of its own is configured, so every node derives
// the same. Each is null when there is no secret (AUTH_JWKS_URL alone).
import { sessionKeyFor } from "../../shared/auth/session-key.ts";
import type { Config } from "../../shared/config/config.ts";
import { UnsubscribeTokens } from "../../shared/notifications/unsubscribe-token.ts";
import { oauthKeysFrom, type OAuthKeys } from "../../shared/oauth/oauth-keys.ts";
import { WebhookSecretSealer } from "../../shared/webhooks/webhook-secret.ts";

/**
 * What `make` derives from the session secret (made in DATA_DIR by an embedded server that has none yet); null
 * without a secret, or when it cannot be read or derived from.
 */
function fromSessionSecret<T>(config: Config, make: (secret: string) => T): T | null {
  try {
    const key = sessionKeyFor(config, { createInDataDir: !config.MONGODB_URL && !config.EVENTSTORE_URL });
    return key.kind === "secret" ? make(key.secret) : null;
  } catch {
    return null;
  }
}

/**
 * The OAuth authorization server's keys, derived from the session secret. Null with AUTH_JWKS_URL alone: the
 * server then has no authorization server, and OAuth access tokens are refused.
 */
export function oauthKeysFor(config: Config): OAuthKeys | null {
  return fromSessionSecret(config, oauthKeysFrom);
}

/**
 * What webhook secrets are sealed with: WEBHOOK_SECRET_KEY, else the session secret. Null when there is neither:
 * webhooks are then refused with 503 and no deliveries are sent.
 */
export function webhookSealerFor(config: Config): WebhookSecretSealer | null {
  if (config.WEBHOOK_SECRET_KEY) return new WebhookSecretSealer(config.WEBHOOK_SECRET_KEY);
  return fromSessionSecret(config, (secret) => new WebhookSecretSealer(secret));
}

/**
 * What notification emails' unsubscribe links are signed with: NOTIFICATION_UNSUBSCRIBE_KEY, else the session
 * secret. Null when there is neither: mails then carry no unsubscribe link, and the unsubscribe routes find no token.
 */
export function unsubscribeTokensFor(config: Config): UnsubscribeTokens | null {
  const validForMs = config.NOTIFICATION_UNSUBSCRIBE_DAYS * 24 * 60 * 60_000;
  if (config.NOTIFICATION_UNSUBSCRIBE_KEY)
    return new UnsubscribeTokens(config.NOTIFICATION_UNSUBSCRIBE_KEY, validForMs);
  return fromSessionSecret(config, (secret) => new UnsubscribeTokens(secret, validForMs));
}
