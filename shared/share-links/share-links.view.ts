// Read model of share links: looked up by secret hash on every public view, listed for their creator (newest
// first) and per page or folder for those who may share it. Revoked links stay, with revokedAt.
import type { ShareLinkEntityType } from "./share-link.decider.ts";

export interface ShareLinkRecord {
  readonly id: string;
  readonly entityType: ShareLinkEntityType;
  readonly entityId: string;
  readonly createdBy: string;
  readonly createdAt: string;
  /** Global position of the creation: the lists' order and cursor. */
  readonly position: number;
  readonly secretHash: string;
  readonly expiresAt: string | null;
  readonly passwordHash: string | null;
  readonly allowIndexing: boolean;
  readonly revokedAt: string | null;
  readonly views: number;
  readonly lastViewedAt: string | null;
}

export interface ShareLinkSettingsChange {
  readonly expiresAt: string | null;
  readonly passwordHash: string | null;
  readonly allowIndexing: boolean;
}

export interface ShareLinksView {
  get(id: string): Promise<ShareLinkRecord | null>;
  findBySecretHash(secretHash: string): Promise<ShareLinkRecord | null>;
  /** The user's links, newest first, strictly before `beforePosition` (null: from the newest); up to `limit`. */
  listForCreator(userId: string, beforePosition: number | null, limit: number): Promise<ShareLinkRecord[]>;
  /** The links of one page or folder, newest first, as listForCreator. */
  listForEntity(
    entityType: ShareLinkEntityType,
    entityId: string,
    beforePosition: number | null,
    limit: number,
  ): Promise<ShareLinkRecord[]>;
}

export interface ShareLinksWriter<Tx> {
  put(tx: Tx, link: ShareLinkRecord): Promise<void>;
  change(tx: Tx, id: string, settings: ShareLinkSettingsChange): Promise<void>;
  revoke(tx: Tx, id: string, revokedAt: string): Promise<void>;
  /** Adds reported views; lastViewedAt only ever moves forward. */
  addViews(tx: Tx, id: string, views: number, lastViewedAt: string): Promise<void>;
}
