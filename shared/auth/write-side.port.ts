// What a process that never writes (a query node) asks of the write side, and what the command API answers
// in process: a user's first sight, an API token's last use, and how far the event log reaches.
import type { SessionClaims } from "./session-verifier.ts";

export interface SeenSession {
  /** The session cookie's value, for a write side that checks it again itself (over HTTP). */
  readonly token: string;
  readonly claims: SessionClaims;
}

export interface SessionAccount {
  readonly userId: string;
  readonly position: number;
}

export interface UsedToken {
  /** The token's secret, for a write side that checks it again itself (over HTTP). */
  readonly secret: string;
  readonly tokenId: string;
  readonly userId: string;
}

export interface WriteSide {
  /**
   * Registers the session's user if need be, brings their profile in step with the claims and accepts their
   * address's pending invitations; answers the account the session signs in to (its subject's id, or a new
   * one once that account was erased) and a position the read models must reach to show all of it.
   */
  recordSession(session: SeenSession, correlationId: string): Promise<SessionAccount>;
  /** Records that the token was used now (at most once a minute is kept). */
  recordTokenUse(token: UsedToken, correlationId: string): Promise<void>;
  /** Position of the newest event in the log (0 when empty). */
  headPosition(): Promise<number>;
}
