// What a note's links may name in one import, built from plain data (the notes' paths, the images that passed
// their check, the import's scope) so that it can be rebuilt in a worker thread once per import: wikilinks and
// embeds resolve with Obsidian's rules to the pages and images the import creates, whose ids derive from the
// scope and the paths (import-ids.ts).
import { attachmentUrl } from "../attachments/attachment.resource.ts";
import { imageUrl } from "../images/image.resource.ts";
import { derivedId } from "./import-ids.ts";
import { VaultIndex } from "./link-resolution.ts";
import type { NoteResolver } from "./vault-note.ts";

export interface VaultLinks {
  /** The caller and the Idempotency-Key (or a fresh id): what derived ids are made from. */
  readonly scope: string;
  readonly notePaths: readonly string[];
  /** Paths of the images whose bytes passed the check: only those can be embedded. */
  readonly imagePaths: readonly string[];
  /** Paths of every other file (PDFs, audio, ...): a note that links or embeds one gets it as an attachment. */
  readonly attachmentPaths: readonly string[];
}

/** A page's id as the import derives it from the note's path. */
export const importedPageId = (scope: string, notePath: string): string => derivedId(scope, "page", notePath);

/** An image's id as the import derives it: one upload per note that embeds it, so each page owns its images. */
export const importedImageId = (scope: string, notePath: string, imagePath: string): string => derivedId(scope, "image", `${notePath}\n${imagePath}`);

/** An attachment's id as the import derives it: one per note that links it, as for images. */
export const importedAttachmentId = (scope: string, notePath: string, filePath: string): string => derivedId(scope, "attachment", `${notePath}\n${filePath}`);

export class VaultResolver {
  private readonly notes: VaultIndex;
  private readonly images: VaultIndex;
  private readonly attachments: VaultIndex;
  /** Hashed once per import: a note may link to the same page tens of thousands of times. */
  private readonly pageUrls = new Map<string, string>();

  constructor(private readonly links: VaultLinks) {
    this.notes = new VaultIndex(links.notePaths, ".md");
    this.images = new VaultIndex(links.imagePaths, null);
    this.attachments = new VaultIndex(links.attachmentPaths, null);
  }

  /** What the links of the note at `notePath` (in `directory`) name. */
  forNote(notePath: string, directory: string): NoteResolver {
    return {
      page: (target) => {
        const path = this.notes.resolve(target);
        return path === null ? null : this.pageUrl(path);
      },
      image: (target, relative) => {
        const path = relative ? this.images.resolveRelative(directory, target) : this.images.resolve(target);
        return path === null ? null : { path, url: imageUrl(importedImageId(this.links.scope, notePath, path)) };
      },
      attachment: (target, relative) => {
        const path = relative ? this.attachments.resolveRelative(directory, target) : this.attachments.resolve(target);
        return path === null ? null : { path, url: attachmentUrl(importedAttachmentId(this.links.scope, notePath, path)) };
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
