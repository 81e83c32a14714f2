// Turns a request's Authorization header or session cookie into a Principal, or refuses it with 401. A bearer
// token, when present, is the only credential considered. Everything is read from the query views; what must
// be recorded (a user's first sight, a token's last use) is asked of the write side, so a query node never
// appends an event itself.
import type { Logger } from "pino";
import { AppError } from "../errors/app-error.ts";
import { nameProblem } from "../kernel/name-rules.ts";
import { unmeasuredCache, type CacheMetrics } from "../metrics/metrics.port.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { TOKEN_USE_GRANULARITY_MS } from "../tokens/token.decider.ts";
import type { UserRecord } from "../users/users.view.ts";
import { hashTokenSecret, looksLikeTokenSecret, sameHash } from "./api-token-secret.ts";
import type { Principal } from "./principal.ts";
import { SESSION_COOKIE, type SessionClaims, type SessionVerifier } from "./session-verifier.ts";
import type { WriteSide } from "./write-side.port.ts";
import { normalizeEmail } from "../users/user.decider.ts";
import { looksLikeAccessToken, verifyAccessToken } from "../oauth/access-token.ts";
import type { KeyObject } from "node:crypto";

const unauthenticated = (message: string) => new AppError("unauthenticated", message);

/** The credentials a request carries, as raw header values. */
export interface Credentials {
  readonly authorization: string | undefined;
  readonly cookie: string | undefined;
}

export interface AuthenticatorPorts {
  readonly views: Pick<ReadModels, "users" | "tokens" | "apps">;
  readonly sessions: SessionVerifier;
  readonly writeSide: WriteSide;
  /** How far the read models have got: a user's record read at one checkpoint holds while it has not moved. */
  readonly projection: {
    current(): Promise<number>;
    waitFor(position: number, timeoutMs: number): Promise<boolean>;
  };
  readonly clock: () => Date;
  readonly logger: Logger;
  readonly consistencyWaitMs: number;
  /** The authorization server's public key and issuer (PUBLIC_BASE_URL, or null: any address of this server); without it, OAuth access tokens are refused. */
  readonly oauth?: { readonly key: KeyObject; readonly issuer: string | null };
  /** Hits and misses of the users-seen cache. */
  readonly seenCache?: CacheMetrics;
}

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

/**
 * Sessions this process has seen, whose user's profile matched their claims: a browser's every request need not
 * look its user up again. Entries are replaced whenever the claims differ, so they never go stale with respect
 * to what the session says. Each remembers the read models' checkpoint at which its user's record was last
 * found: every change to a record (an erasure, a profile) is projected, which moves the checkpoint, so while
 * it stands still the record is not read again.
 */
const SEEN_LIMIT = 10_000;

interface Seen {
  readonly user: UserRecord;
  /** The checkpoint read just before the record was last found. */
  checkedAt: number;
}

export class Authenticator {
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly ports: AuthenticatorPorts) {}

  async authenticate(credentials: Credentials, correlationId: string): Promise<Principal> {
    if (credentials.authorization !== undefined) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(credentials.authorization);
      if (!match?.[1]) throw unauthenticated("the Authorization header must be `Bearer <API_TOKEN>`");
      if (this.ports.oauth && !looksLikeTokenSecret(match[1]) && looksLikeAccessToken(match[1]))
        return this.fromAccessToken(match[1], this.ports.oauth);
      return this.fromToken(match[1], correlationId);
    }
    const session = readCookie(credentials.cookie, SESSION_COOKIE);
    if (!session) throw unauthenticated("sign in or send an API token");
    const claims = await this.ports.sessions.verify(session);
    if (!claims) throw unauthenticated("the session is invalid or has expired");
    // The name reaches other users' screens and mail: refused as a request field would be, before it is recorded.
    const nameRefused = nameProblem(claims.name);
    if (nameRefused) throw new AppError("validation_failed", `the session's name ${nameRefused}`);
    const user = await this.sessionUser(session, claims, correlationId);
    return { user, authentication: "session", scopes: null, tokenId: null, expiresAt: claims.exp * 1000 };
  }

  private async fromToken(secret: string, correlationId: string): Promise<Principal> {
    if (!looksLikeTokenSecret(secret)) throw unauthenticated("invalid API token");
    const hash = hashTokenSecret(secret);
    const token = await this.ports.views.tokens.findBySecretHash(hash);
    if (!token || !sameHash(token.secretHash, hash)) throw unauthenticated("invalid API token");
    if (token.revokedAt) throw unauthenticated("this API token was revoked");
    const now = this.ports.clock();
    if (token.expiresAt && Date.parse(token.expiresAt) <= now.getTime())
      throw unauthenticated("this API token has expired");
    const user = await this.ports.views.users.get(token.userId);
    if (!user) throw unauthenticated("the token's user no longer exists");
    if (!token.lastUsedAt || now.getTime() - Date.parse(token.lastUsedAt) >= TOKEN_USE_GRANULARITY_MS) {
      // Not awaited: the caller's request does not depend on it, and a lost update is made by the next use.
      this.ports.writeSide
        .recordTokenUse({ secret, tokenId: token.id, userId: user.id }, correlationId)
        .catch((error: unknown) =>
          this.ports.logger.warn({ event: "token.use_not_recorded", tokenId: token.id, err: error }),
        );
    }
    return {
      user,
      authentication: "token",
      scopes: token.scopes,
      tokenId: token.id,
      expiresAt: token.expiresAt === null ? null : Date.parse(token.expiresAt),
    };
  }

  /**
   * An OAuth access token: its signature and audience say who issued it for what; the app it was issued to must
   * still be authorized (a revoked app's tokens stop at once), and it carries no more than the app was granted.
   * The app stands where an API token's id would: rate budgets, history and MCP sessions name it.
   */
  private async fromAccessToken(token: string, oauth: NonNullable<AuthenticatorPorts["oauth"]>): Promise<Principal> {
    const verdict = await verifyAccessToken(token, oauth.key, { issuer: oauth.issuer, now: this.ports.clock });
    if (!verdict.ok) throw unauthenticated(verdict.reason);
    const { claims } = verdict;
    const app = await this.ports.views.apps.get(claims.appId);
    if (!app || app.userId !== claims.userId) throw unauthenticated("invalid access token");
    if (app.revokedAt) throw unauthenticated("this app's authorization was revoked");
    const user = await this.ports.views.users.get(app.userId);
    if (!user) throw unauthenticated("the token's user no longer exists");
    const scopes = claims.scopes.filter((scope) => app.scopes.includes(scope));
    return { user, authentication: "token", scopes, tokenId: app.id, expiresAt: claims.expiresAt };
  }

  /**
   * A user's first sight by this process goes to the write side (registration, profile, pending invitations),
   * and the request waits until the read models show what that recorded: an invited user's very first request
   * already sees what was shared with them.
   */
  private async sessionUser(session: string, claims: SessionClaims, correlationId: string): Promise<UserRecord> {
    const image = claims.picture ?? null;
    // By session, not subject: one subject's sessions from before and after an erasure sign in to different accounts.
    const cached = this.seen.get(session);
    const seenCache = this.ports.seenCache ?? unmeasuredCache;
    // The record is read again on a hit once the read models have moved: an account erased meanwhile (by this
    // process or another) must not go on answering from memory.
    if (
      cached &&
      cached.user.name === claims.name &&
      cached.user.image === image &&
      cached.user.email === normalizeEmail(claims.email) &&
      (await this.stillThere(cached))
    ) {
      seenCache.hit();
      return cached.user;
    }
    seenCache.miss();
    // The account the session signs in to: its subject's own, or a new one once that was erased.
    const { userId, position } = await this.ports.writeSide.recordSession({ token: session, claims }, correlationId);
    const reached = await this.ports.projection.waitFor(position, this.ports.consistencyWaitMs);
    const user = await this.ports.views.users.get(userId);
    if (!reached || !user) {
      throw new AppError("consistency_timeout", "your account is recorded but not visible yet; retry", {
        "retry-after": "1",
      });
    }
    if (this.seen.size >= SEEN_LIMIT) this.seen.clear();
    const current = { ...user, name: claims.name, image };
    // The checkpoint the wait reached: the record was read at it or later.
    this.seen.set(session, { user: current, checkedAt: position });
    return current;
  }

  /** Whether a remembered user's record still exists: read again only when the read models have moved. */
  private async stillThere(cached: Seen): Promise<boolean> {
    const checkpoint = await this.ports.projection.current();
    if (checkpoint === cached.checkedAt) return true;
    if (!(await this.ports.views.users.get(cached.user.id))) return false;
    cached.checkedAt = checkpoint;
    return true;
  }
}
