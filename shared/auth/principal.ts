// Who is calling and how: a session (no scope limits) or a named API token with its scopes.
import type { Scope } from "../kernel/scopes.ts";
import type { UserRecord } from "../users/users.view.ts";

export interface Principal {
  readonly user: UserRecord;
  readonly authentication: "session" | "token";
  /** The token's scopes; null for a session, which no scope restricts. */
  readonly scopes: Scope[] | null;
  readonly tokenId: string | null;
  /** When the credential stops working (ms since the epoch): the token's expiresAt, the session's exp; null: never. */
  readonly expiresAt: number | null;
}
