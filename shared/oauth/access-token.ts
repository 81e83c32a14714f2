// What an OAuth access token says, once its signature, type, lifetime and audience are checked. The tokens are
// JWTs (RFC 9068) signed by this server's authorization server: any node holding the server's secret verifies
// them without a look-up; whether the app they were issued to is still authorized is the caller's look-up.
import type { KeyObject } from "node:crypto";
import { jwtVerify } from "jose";
import { z } from "zod";
import { scopeSchema, type Scope } from "../kernel/scopes.ts";

/** The protected resource every token is bound to (RFC 8707): the MCP server's address, as its metadata says. */
const OAUTH_RESOURCE_PATH = "/mcp";
export const resourceOf = (issuer: string): string => `${issuer.replace(/\/+$/, "")}${OAUTH_RESOURCE_PATH}`;

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
export const looksLikeAccessToken = (value: string): boolean => JWT_SHAPE.test(value) && value.length <= 4096;

const claimsSchema = z.object({
  iss: z.string().url(),
  sub: z.string().min(1),
  aud: z.union([z.string(), z.array(z.string())]),
  exp: z.number(),
  client_id: z.string().min(1),
  scope: z.string().default(""),
  app_id: z.string().min(1),
});

interface AccessTokenClaims {
  readonly appId: string;
  readonly userId: string;
  readonly clientId: string;
  readonly scopes: Scope[];
  /** ms since the epoch */
  readonly expiresAt: number;
}

export type AccessTokenVerdict = { ok: true; claims: AccessTokenClaims } | { ok: false; reason: string };

/**
 * `issuer` is PUBLIC_BASE_URL when the server has one: a token of any other issuer is refused. Without it, the
 * issuer is the address the client used, and the token's audience must be that issuer's resource.
 */
export async function verifyAccessToken(
  token: string,
  key: KeyObject,
  options: { issuer: string | null; now: () => Date },
): Promise<AccessTokenVerdict> {
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ["EdDSA"],
      typ: "at+jwt",
      currentDate: options.now(),
      ...(options.issuer ? { issuer: options.issuer.replace(/\/+$/, "") } : {}),
    }));
  } catch {
    return { ok: false, reason: "invalid or expired access token" };
  }
  const parsed = claimsSchema.safeParse(payload);
  if (!parsed.success) return { ok: false, reason: "invalid access token" };
  const { iss, sub, aud, exp, client_id, scope, app_id } = parsed.data;
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (audiences.length !== 1 || audiences[0] !== resourceOf(iss))
    return { ok: false, reason: "this access token is for another resource" };
  const scopes = scope.split(" ").flatMap((name) => {
    const known = scopeSchema.safeParse(name);
    return known.success ? [known.data] : [];
  });
  return { ok: true, claims: { appId: app_id, userId: sub, clientId: client_id, scopes, expiresAt: exp * 1000 } };
}
