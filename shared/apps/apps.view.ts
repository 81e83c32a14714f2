// Read model of the apps users authorized: looked up on every OAuth access token's request, listed for their user.
import type { Scope } from "../kernel/scopes.ts";

export interface AppRecord {
  readonly id: string;
  readonly userId: string;
  readonly clientId: string;
  readonly name: string;
  readonly clientUri: string | null;
  readonly redirectHost: string;
  readonly scopes: Scope[];
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

export interface AppsView {
  get(id: string): Promise<AppRecord | null>;
  /** The user's apps that are not revoked, newest first. */
  listForUser(userId: string): Promise<AppRecord[]>;
}

export interface AppsWriter<Tx> {
  put(tx: Tx, app: AppRecord): Promise<void>;
  markRevoked(tx: Tx, id: string, revokedAt: string): Promise<void>;
  /** The user was erased: every app they authorized goes, with the names it was shown by. */
  removeForUser(tx: Tx, userId: string): Promise<void>;
}
