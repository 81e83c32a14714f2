// Share-link passwords: hashed with scrypt (node:crypto, run on libuv's thread pool, not the event loop), a
// random salt each; only the hash is recorded. A viewer who gave the right password holds a cookie whose value is
// an HMAC keyed by that hash: any node can check it from the read model alone, and a new password (a new hash)
// makes every earlier cookie worthless at once.
import { createHmac, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const N = 16_384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const HASH_SHAPE = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** How long a viewer's unlocked cookie lasts. */
export const UNLOCK_SECONDS = 12 * 60 * 60;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFC"),
      salt,
      KEY_LENGTH,
      { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** `scrypt$N$r$p$salt$key`, salt and key in base64url. */
export async function hashSharePassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export const passwordHashShape = HASH_SHAPE;

export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const match = HASH_SHAPE.exec(stored);
  if (!match) return false;
  const [, n, r, p, salt, key] = match;
  const expected = Buffer.from(key ?? "", "base64url");
  const actual = await derive(password, Buffer.from(salt ?? "", "base64url"), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const mac = (passwordHash: string, linkId: string, expires: number): string =>
  createHmac("sha256", passwordHash).update(`share-link-unlock\n${linkId}\n${expires}`).digest("base64url");

/** The cookie value proving the password was given for this link, valid until `expires` (epoch seconds). */
export function unlockToken(passwordHash: string, linkId: string, expires: number): string {
  return `${expires}.${mac(passwordHash, linkId, expires)}`;
}

export function unlockTokenValid(token: string, passwordHash: string, linkId: string, nowSeconds: number): boolean {
  const [expiresText, given] = token.split(".");
  const expires = Number(expiresText);
  if (!Number.isInteger(expires) || expires <= nowSeconds || !given) return false;
  const expected = Buffer.from(mac(passwordHash, linkId, expires));
  const presented = Buffer.from(given);
  return expected.length === presented.length && timingSafeEqual(expected, presented);
}
