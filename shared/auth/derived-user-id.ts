// User ids derived from a stable identity (an email address for local sessions, an OpenID provider's issuer and
// subject for sign-in): the same identity always gets the same user, and no table maps one to the other.
import { createHash } from "node:crypto";

/** A UUID (version 8 layout) from the SHA-256 of `seed`. */
function derivedUserId(seed: string): string {
  const hex = createHash("sha256").update(seed).digest("hex").slice(0, 32).split("");
  hex[12] = "8";
  hex[16] = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The user `npm run session` signs in as for an address. */
export function userIdForEmail(email: string): string {
  return derivedUserId(email.trim().toLowerCase());
}

/**
 * The user an OpenID provider's subject signs in as: the pair (issuer, sub) is the identity OpenID Connect
 * promises stable (an address may change or be reassigned at the provider).
 */
export function userIdForSubject(issuer: string, subject: string): string {
  return derivedUserId(`oidc\n${issuer}\n${subject}`);
}
