// What a process that never writes (a query node) asks of the write side, and what the command API answers
// in process: a user's first sight, an API token's last use, an export, and how far the event log reaches.
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

/** Who is exporting: their account and credential, and the credentials themselves to be checked again over HTTP. */
export interface Exporter {
  readonly userId: string;
  /** The API token or app the caller acts through; null for a browser session. */
  readonly tokenId: string | null;
  /** The request's Authorization and Cookie headers, for a write side that authenticates the caller itself. */
  readonly credentials: { readonly authorization?: string; readonly cookie?: string };
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
  /** Records a vault export of the folder (null: the caller's whole workspace) before it is sent; answers its position. */
  recordExport(exporter: Exporter, folderId: string | null, correlationId: string): Promise<number>;
  /** Position of the newest event in the log (0 when empty). */
  headPosition(): Promise<number>;
}
