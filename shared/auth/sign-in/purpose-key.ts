// Keys for what sign-in signs besides sessions (a sign-in under way, a one-time link), derived from the session
// secret with HKDF and one label each: none of them can pass for a session or for one another.
import { createSecretKey, hkdfSync, type KeyObject } from "node:crypto";

export type SigningPurpose = "sign-in-flow" | "sign-in-link";

export function purposeKey(sessionSecret: string, purpose: SigningPurpose): KeyObject {
  return createSecretKey(Buffer.from(hkdfSync("sha256", sessionSecret, "workspace-sign-in", purpose, 32)));
}
