// Verifies the browser session cookie: a JWT signed HS256 with AUTH_SESSION_SECRET, or by a key in AUTH_JWKS_URL.
import { createRemoteJWKSet, jwtVerify, SignJWT, type JWTVerifyGetKey } from "jose";
import { z } from "zod";

export const SESSION_COOKIE = "app-auth.session_token";

export const sessionClaimsSchema = z.object({
  sub: z.uuid(),
  email: z.email(),
  name: z.string().trim().min(1).max(200),
  picture: z.string().max(2048).optional(),
  exp: z.number().int(),
});
export type SessionClaims = z.infer<typeof sessionClaimsSchema>;

export type SessionKey = { kind: "secret"; secret: string } | { kind: "jwks"; url: string };

export class SessionVerifier {
  private readonly secret: Uint8Array | null;
  private readonly jwks: JWTVerifyGetKey | null;

  constructor(key: SessionKey) {
    this.secret = key.kind === "secret" ? new TextEncoder().encode(key.secret) : null;
    this.jwks = key.kind === "jwks" ? createRemoteJWKSet(new URL(key.url)) : null;
  }

  /** The session's claims, or null for anything that is not a valid, unexpired session of ours. */
  async verify(token: string): Promise<SessionClaims | null> {
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
