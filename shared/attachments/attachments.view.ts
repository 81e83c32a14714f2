// Read model of attachments: one record per upload, kept (marked deleted) after a deletion until the page is
// purged, so the purge still finds the bytes to remove.
import type { ListKey } from "../read-store/list-query.ts";

export interface AttachmentRecord {
  readonly id: string;
  readonly pageId: string;
  readonly uploaderId: string;
  readonly filename: string;
  readonly originalName: string;
  readonly mimeType: string;
  readonly size: number;
  readonly sha256: string;
  readonly createdAt: string;
  /** The upload's global position: the list's order. */
  readonly position: number;
  /** When it was deleted; null while it is live. */
  readonly deletedAt: string | null;
}

export interface AttachmentsView {
  /** The record, deleted or not; the caller decides what a deleted one means. */
  get(id: string): Promise<AttachmentRecord | null>;
  /** A page's live attachments newest first by (position, id), after `before`; up to limit + 1 rows. */
  list(query: { pageId: string; before: ListKey | null; limit: number }): Promise<AttachmentRecord[]>;
  /** Every attachment ever uploaded to the page, deleted ones too, in id order after `afterId`: what a purge removes. */
  allOfPage(pageId: string, afterId: string | null, limit: number): Promise<AttachmentRecord[]>;
}

export interface AttachmentsWriter<Tx> {
  put(tx: Tx, attachment: AttachmentRecord): Promise<void>;
  markDeleted(tx: Tx, id: string, deletedAt: string): Promise<void>;
  /** Bytes of every attachment uploaded to the page, deleted ones too, as the batch sees them: what its purge frees. */
  bytesOfPage(tx: Tx, pageId: string): Promise<number>;
  /** Bytes of one attachment as the batch sees it (0 when there is none): what a replacement of its bytes frees. */
  bytesOf(tx: Tx, id: string): Promise<number>;
  /** The page was purged: its attachments' records go (the command side removes their bytes). */
  removePage(tx: Tx, pageId: string): Promise<void>;
}
