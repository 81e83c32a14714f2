// Turns a request's Authorization header or session cookie into a Principal, or refuses it with 401.
// A bearer token, when present, is the only credential considered.
import type { FastifyRequest } from "fastify";
import type { Dependencies } from "../app/dependencies.ts";
import { AppError } from "../errors/app-error.ts";
import { runCommand } from "../commands/run-command.ts";
import { eventGuard } from "../events.ts";
import { tokenIdSchema, userIdSchema } from "../kernel/ids.ts";
import { TOKEN_USE_GRANULARITY_MS, tokenDecider, tokenEventSchemas, tokenStream, type TokenEvent } from "../tokens/token.decider.ts";
import { ensureRegistered } from "../users/register-user.ts";
import { hashTokenSecret, looksLikeTokenSecret, sameHash } from "./api-token-secret.ts";
import type { Principal } from "./principal.ts";
import { SESSION_COOKIE } from "./session-verifier.ts";

const isTokenEvent = eventGuard<TokenEvent>(tokenEventSchemas);
const unauthenticated = (message: string) => new AppError("unauthenticated", message);

export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) {
      const value = part.slice(index + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return null;
}

async function fromToken(deps: Dependencies, secret: string, correlationId: string): Promise<Principal> {
  if (!looksLikeTokenSecret(secret)) throw unauthenticated("invalid API token");
  const hash = hashTokenSecret(secret);
  const token = await deps.readStore.tokens.findBySecretHash(hash);
  if (!token || !sameHash(token.secretHash, hash)) throw unauthenticated("invalid API token");
  if (token.revokedAt) throw unauthenticated("this API token was revoked");
  const now = deps.clock();
  if (token.expiresAt && Date.parse(token.expiresAt) <= now.getTime()) throw unauthenticated("this API token has expired");
  const user = await deps.readStore.users.get(token.userId);
  if (!user) throw unauthenticated("the token's user no longer exists");
  if (!token.lastUsedAt || now.getTime() - Date.parse(token.lastUsedAt) >= TOKEN_USE_GRANULARITY_MS) {
    const tokenId = tokenIdSchema.parse(token.id);
    runCommand(deps.eventStore, tokenStream(token.id), tokenDecider, isTokenEvent, { type: "RecordTokenUse", tokenId, now: now.toISOString() }, {
      actorId: userIdSchema.parse(user.id),
      correlationId,
      now,
    }).catch((error: unknown) => deps.logger.warn({ event: "token.use_not_recorded", err: error }));
  }
  return { user, authentication: "token", scopes: token.scopes, tokenId: token.id };
}

export async function authenticate(deps: Dependencies, request: FastifyRequest): Promise<Principal> {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) throw unauthenticated("the Authorization header must be `Bearer <API_TOKEN>`");
    return fromToken(deps, match[1], request.id);
  }
  const session = readCookie(request.headers.cookie, SESSION_COOKIE);
  if (!session) throw unauthenticated("sign in or send an API token");
  const claims = await deps.sessions.verify(session);
  if (!claims) throw unauthenticated("the session is invalid or has expired");
  const user = await ensureRegistered(deps, claims, request.id);
  return { user, authentication: "session", scopes: null, tokenId: null };
}
