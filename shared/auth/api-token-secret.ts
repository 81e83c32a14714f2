// API token secrets: `pat_` + 32 random bytes base64url, shown once; only their SHA-256 is ever stored.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const TOKEN_SHAPE = /^pat_[A-Za-z0-9_-]{43}$/;

export function newTokenSecret(): string {
  return `pat_${randomBytes(32).toString("base64url")}`;
}

export function hashTokenSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function looksLikeTokenSecret(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}
