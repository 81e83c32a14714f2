// What one vault import has done so far: the counts and reasons it answers, the last position it wrote, and the
// bytes it read and wrote against its limit. The import and its linked files add to the same tally.
import type { ImportResult } from "./import-result.ts";

export class ImportTally {
  readonly result: ImportResult = {
    foldersCreated: 0,
    pagesCreated: 0,
    imagesUploaded: 0,
    attachmentsUploaded: 0,
    backlinksCreated: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    errors: [],
  };
  position: number | null = null;
  /** Bytes read and written so far, against ImportLimits.maxWrittenBytes. */
  written = 0;

  record(position: number | null): void {
    if (position !== null) this.position = Math.max(this.position ?? 0, position);
  }
}
