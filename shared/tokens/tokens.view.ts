// Read model of API tokens: looked up by secret hash on every token request, listed for their owner.
import type { Scope } from "../kernel/scopes.ts";

export interface TokenRecord {
  readonly id: string;
  readonly userId: string;
  readonly name: string;
  readonly scopes: Scope[];
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  readonly createdAt: string;
  readonly revokedAt: string | null;
  readonly secretHash: string;
}

export interface TokensView {
  get(id: string): Promise<TokenRecord | null>;
  findBySecretHash(secretHash: string): Promise<TokenRecord | null>;
  /** The user's tokens that are not revoked, newest first. */
  listForUser(userId: string): Promise<TokenRecord[]>;
}

export interface TokensWriter<Tx> {
  put(tx: Tx, token: TokenRecord): Promise<void>;
  markUsed(tx: Tx, id: string, usedAt: string): Promise<void>;
  markRevoked(tx: Tx, id: string, revokedAt: string): Promise<void>;
  /** The user was erased: every token of theirs goes, revoked or not, with the name they gave it. */
  removeForUser(tx: Tx, userId: string): Promise<void>;
}
