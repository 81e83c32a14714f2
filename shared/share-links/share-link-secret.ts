// Share-link secrets: `sl_` + 32 random bytes base64url (256 bits), shown once in the creation answer; only their
// SHA-256 is ever stored (event, read model), and a presented secret is compared with it in constant time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const SECRET_SHAPE = /^sl_[A-Za-z0-9_-]{43}$/;

export function newShareLinkSecret(): string {
  return `sl_${randomBytes(32).toString("base64url")}`;
}

/** Whether a path segment can be a secret at all: anything else is answered 404 without a lookup. */
export function looksLikeShareLinkSecret(value: string): boolean {
  return SECRET_SHAPE.test(value);
}

export function hashShareLinkSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Whether `secret` hashes to `storedHash`, compared in constant time. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashShareLinkSecret(secret), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** The public address of a link: `/s/<secret>` under the service's public base (or the path alone). */
export function shareLinkUrl(baseUrl: string | null, secret: string): string {
  return `${baseUrl ? baseUrl.replace(/\/+$/, "") : ""}/s/${secret}`;
}
