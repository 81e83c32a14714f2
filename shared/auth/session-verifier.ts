// Verifies the browser session cookie: a JWT signed HS256 with AUTH_SESSION_SECRET, or by a key in AUTH_JWKS_URL.
import { createSecretKey, type KeyObject } from "node:crypto";
import { createRemoteJWKSet, jwtVerify, SignJWT, type JWTVerifyGetKey } from "jose";
import { z } from "zod";
import { unmeasuredCache, type CacheMetrics } from "../metrics/metrics.port.ts";
import { emailAddress } from "../kernel/email.ts";

export const SESSION_COOKIE = "app-auth.session_token";

const sessionClaimsSchema = z.object({
  sub: z.uuid(),
  email: emailAddress,
  name: z.string().trim().min(1).max(200),
  picture: z.string().max(2048).optional(),
  exp: z.number().int(),
  /** When the session was issued (s): a session from before its account's erasure does not register it again. */
  iat: z.number().int().optional(),
});
export type SessionClaims = z.infer<typeof sessionClaimsSchema>;

export type SessionKey = { kind: "secret"; secret: string } | { kind: "jwks"; url: string };

/** Verified sessions are remembered (until they expire) so a browser's every request does not redo the HMAC. */
const CACHE_LIMIT = 10_000;

export class SessionVerifier {
  private readonly secret: KeyObject | null;
  private readonly jwks: JWTVerifyGetKey | null;
  private readonly verified = new Map<string, SessionClaims>();

  constructor(
    key: SessionKey,
    private readonly now: () => number = Date.now,
    private readonly cache: CacheMetrics = unmeasuredCache,
  ) {
    this.secret = key.kind === "secret" ? createSecretKey(Buffer.from(key.secret, "utf8")) : null;
    this.jwks = key.kind === "jwks" ? createRemoteJWKSet(new URL(key.url)) : null;
  }

  /** The session's claims, or null for anything that is not a valid, unexpired session of ours. */
  async verify(token: string): Promise<SessionClaims | null> {
    const cached = this.verified.get(token);
    if (cached) {
      if (cached.exp * 1000 > this.now()) {
        this.cache.hit();
        return cached;
      }
      this.verified.delete(token);
    }
    this.cache.miss();
    const claims = await this.verifySignature(token);
    if (claims) {
      if (this.verified.size >= CACHE_LIMIT) this.verified.clear();
      this.verified.set(token, claims);
    }
    return claims;
  }

  private async verifySignature(token: string): Promise<SessionClaims | null> {
    try {
      const { payload } = this.secret
        ? await jwtVerify(token, this.secret, { algorithms: ["HS256"], requiredClaims: ["exp", "sub"] })
        : this.jwks
          ? await jwtVerify(token, this.jwks, { requiredClaims: ["exp", "sub"] })
          : { payload: null };
      const claims = sessionClaimsSchema.safeParse(payload);
      return claims.success ? claims.data : null;
    } catch {
      return null;
    }
  }
}

/** Mints a session for local use and tests (HS256). */
export async function mintSession(
  secret: string,
  claims: { sub: string; email: string; name: string; picture?: string },
  expiresInSeconds = 7 * 24 * 3600,
): Promise<string> {
  return new SignJWT({ email: claims.email, name: claims.name, ...(claims.picture ? { picture: claims.picture } : {}) })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
    .sign(new TextEncoder().encode(secret));
}
