// Where the authorization server keeps what is short-lived and holds secrets (its sessions, interactions,
// authorization codes, refresh tokens, grants' details): not the event log, which must hold no secret and
// keeps everything forever. Entries are keyed by the SHA-256 of their id (an id is often the secret itself),
// expire, and are found by grant so that revoking an app removes its codes and tokens at once. Adapters:
// SQLite (DATA_DIR/oauth.sqlite) and MongoDB (a collection outside the read-model generations).
import { createHash } from "node:crypto";

export interface OAuthEntry {
  /** The authorization server's payload, without its id. */
  readonly payload: Record<string, unknown>;
  readonly grantId: string | null;
  /** The Session model's uid, hashed like the id. */
  readonly uidHash: string | null;
  /** When the entry stops existing (ms since the epoch); null: never. */
  readonly expiresAt: number | null;
}

export interface OAuthStore {
  put(model: string, idHash: string, entry: OAuthEntry): Promise<void>;
  get(model: string, idHash: string, now: number): Promise<OAuthEntry | null>;
  findByUid(uidHash: string, now: number): Promise<{ idHash: string; entry: OAuthEntry } | null>;
  /** Marks the entry consumed (a code exchanged, a refresh token rotated): kept, so a second use is seen. */
  consume(model: string, idHash: string, consumedAt: number): Promise<void>;
  remove(model: string, idHash: string): Promise<void>;
  /** Every entry of the grant, of every model: its codes and tokens. */
  removeGrant(grantId: string): Promise<void>;
  /** Entries past their expiry, at most `limit` of them; answers how many went. */
  sweep(now: number, limit: number): Promise<number>;
  close(): Promise<void>;
}

export const hashOAuthId = (value: string): string => createHash("sha256").update(value).digest("hex");
