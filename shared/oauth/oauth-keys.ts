// The authorization server's keys, derived from the server's secret (the session secret, as webhook secrets are
// sealed with), so every node derives the same ones and nothing more is stored: an Ed25519 key signing access
// tokens (published at /oauth/jwks; query nodes verify with its public half) and the keys signing its cookies.
// Changing the secret changes them: every OAuth token and cookie stops working, as every session does. Pure.
import { createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from "node:crypto";
import { z } from "zod";

export interface OAuthKeys {
  /** The signing key as a private JWK, with its key id, for the authorization server. */
  readonly signingJwk: Record<string, string>;
  readonly verificationKey: KeyObject;
  readonly keyId: string;
  readonly cookieKeys: string[];
}

const derive = (secret: string, label: string, length: number): Buffer =>
  Buffer.from(hkdfSync("sha256", secret, "workspace-oauth", label, length));

/** The DER prefix of a PKCS #8 Ed25519 private key; the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

const okpJwkSchema = z.object({ kty: z.literal("OKP"), crv: z.literal("Ed25519"), x: z.string(), d: z.string() });

export function oauthKeysFrom(secret: string): OAuthKeys {
  const seed = derive(secret, "access-token-signing-key", 32);
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: "der",
    type: "pkcs8",
  });
  const jwk = okpJwkSchema.parse(privateKey.export({ format: "jwk" }));
  const keyId = derive(secret, "access-token-key-id", 12).toString("base64url");
  return {
    signingJwk: { ...jwk, kid: keyId, alg: "EdDSA", use: "sig" },
    verificationKey: createPublicKey(privateKey),
    keyId,
    cookieKeys: [derive(secret, "cookie-signing-key", 32).toString("base64url")],
  };
}
