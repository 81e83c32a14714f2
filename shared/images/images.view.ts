// Read model of uploaded images: looked up by id when the bytes are asked for.
import type { ImageMimeType } from "./image.decider.ts";

export interface ImageRecord {
  readonly id: string;
  readonly pageId: string;
  readonly uploaderId: string;
  readonly filename: string;
  readonly originalName: string;
  readonly mimeType: ImageMimeType;
  readonly size: number;
  readonly width: number;
  readonly height: number;
  readonly alt: string;
  readonly sha256: string;
  readonly createdAt: string;
}

export interface ImagesView {
  get(id: string): Promise<ImageRecord | null>;
  /** Every image of a page in id order, after `afterId`: what a purge removes the bytes of. */
  allOfPage(pageId: string, afterId: string | null, limit: number): Promise<ImageRecord[]>;
}

export interface ImagesWriter<Tx> {
  put(tx: Tx, image: ImageRecord): Promise<void>;
  /** Bytes of the images uploaded to the page, as the batch sees them: what its purge takes off the owner's total. */
  bytesOfPage(tx: Tx, pageId: string): Promise<number>;
  /** The page was purged: the records of the images uploaded to it go (the purge removes their bytes). */
  removePage(tx: Tx, pageId: string): Promise<void>;
}
