// What a note's links may name in one import, built from plain data (the notes' paths, the images that passed
// their check, the import's scope) so that it can be rebuilt in a worker thread once per import: wikilinks and
// embeds resolve with Obsidian's rules to the pages, images and attachments the import creates or updates, whose
// ids derive from the scope and the paths (import-ids.ts). An image or file linked by several notes is one
// image or attachment (stored once), so its id names the file, not the note linking it.
import { attachmentUrl } from "../attachments/attachment.resource.ts";
import { imageUrl } from "../images/image.resource.ts";
import { derivedId } from "./import-ids.ts";
import { VaultIndex } from "./link-resolution.ts";
import type { NoteResolver } from "./vault-note.ts";

export interface VaultLinks {
  /** The caller and the Idempotency-Key (or a fresh id): what derived ids are made from. */
  readonly scope: string;
  readonly notePaths: readonly string[];
  /** The images whose bytes passed the check (only those can be embedded), with their bytes' SHA-256. */
  readonly images: readonly { readonly path: string; readonly sha256: string }[];
  /** Paths of every other file (PDFs, audio, ...): a note that links or embeds one gets it as an attachment. */
  readonly attachmentPaths: readonly string[];
}

/** A page's id as the import derives it from the note's path. */
export const importedPageId = (scope: string, notePath: string): string => derivedId(scope, "page", notePath);

/**
 * An image's id as the import derives it: one per image file and its bytes, whichever notes embed it. Images
 * are never changed once uploaded, so an image whose bytes changed since the last import is a new one.
 */
export const importedImageId = (scope: string, imagePath: string, sha256: string): string =>
  derivedId(scope, "image", `${imagePath}\n${sha256}`);

/** An attachment's id as the import derives it: one per file, whichever notes link it; a new import replaces its bytes. */
export const importedAttachmentId = (scope: string, filePath: string): string =>
  derivedId(scope, "attachment", filePath);

export class VaultResolver {
  private readonly notes: VaultIndex;
  private readonly images: VaultIndex;
  private readonly imageIds: Map<string, string>;
  private readonly attachments: VaultIndex;
  /** Hashed once per import: a note may link to the same page tens of thousands of times. */
  private readonly pageUrls = new Map<string, string>();

  constructor(private readonly links: VaultLinks) {
    this.notes = new VaultIndex(links.notePaths, ".md");
    this.images = new VaultIndex(
      links.images.map((image) => image.path),
      null,
    );
    this.imageIds = new Map(
      links.images.map((image) => [image.path, importedImageId(links.scope, image.path, image.sha256)]),
    );
    this.attachments = new VaultIndex(links.attachmentPaths, null);
  }

  /** What the links of a note in `directory` name. */
  forNote(directory: string): NoteResolver {
    return {
      page: (target) => {
        const path = this.notes.resolve(target);
        return path === null ? null : this.pageUrl(path);
      },
      image: (target, relative) => {
        const path = relative ? this.images.resolveRelative(directory, target) : this.images.resolve(target);
        const id = path === null ? undefined : this.imageIds.get(path);
        return path === null || id === undefined ? null : { path, url: imageUrl(id) };
      },
      attachment: (target, relative) => {
        const path = relative ? this.attachments.resolveRelative(directory, target) : this.attachments.resolve(target);
        return path === null ? null : { path, url: attachmentUrl(importedAttachmentId(this.links.scope, path)) };
      },
    };
  }

  private pageUrl(path: string): string {
    let url = this.pageUrls.get(path);
    if (url === undefined) {
      url = `/api/v1/pages/${importedPageId(this.links.scope, path)}`;
      this.pageUrls.set(path, url);
    }
    return url;
  }
}
