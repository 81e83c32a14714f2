// What POST /imports/obsidian answers: counts of what this request created, updated and found unchanged, and the
// files it reported, bounded:
// the answer is recorded under the request's Idempotency-Key as one event, so it must stay well inside the
// size of one change whatever the vault holds.
import { z } from "zod";

/** At most this many reasons are listed, and at most IMPORT_ERRORS_MAX_BYTES of them in UTF-8. */
export const IMPORT_ERRORS_SHOWN = 1_000;
/** A quarter of the largest change (MAX_APPEND_BYTES): room for the rest of the answer and the record's fields. */
const IMPORT_ERRORS_MAX_BYTES = 256 * 1024;

export const importResult = z
  .object({
    foldersCreated: z.number().int(),
    pagesCreated: z.number().int(),
    imagesUploaded: z.number().int(),
    /** Files other than notes and images that became attachments (one per file, of the first note linking it). */
    attachmentsUploaded: z.number().int(),
    backlinksCreated: z.number().int(),
    /** Folders, pages, images and attachments this import made. */
    created: z.number().int(),
    /** Pages and attachments an earlier import into the same place made from the same paths, changed to the vault's. */
    updated: z.number().int(),
    /** Folders, pages, images and attachments already as the vault has them. */
    unchanged: z.number().int(),
    /** One line per file skipped or changed, in the order met; the first ones when there are too many. */
    errors: z.array(z.string()),
    /** How many further lines `errors` leaves out; absent when it lists them all. */
    errorsOmitted: z.number().int().positive().optional(),
  })
  .meta({
    id: "ImportResult",
    description: "What a vault import created, updated and found unchanged, and every file it reported",
  });
export type ImportResult = z.infer<typeof importResult>;

/** The answer with its `errors` cut to IMPORT_ERRORS_SHOWN lines and IMPORT_ERRORS_MAX_BYTES, counting those left out. */
export function boundedImportResult(result: ImportResult): ImportResult {
  const kept: string[] = [];
  let bytes = 0;
  for (const error of result.errors) {
    const size = Buffer.byteLength(JSON.stringify(error));
    if (kept.length >= IMPORT_ERRORS_SHOWN || bytes + size > IMPORT_ERRORS_MAX_BYTES) break;
    kept.push(error);
    bytes += size;
  }
  const omitted = result.errors.length - kept.length + (result.errorsOmitted ?? 0);
  return { ...result, errors: kept, ...(omitted > 0 ? { errorsOmitted: omitted } : {}) };
}
