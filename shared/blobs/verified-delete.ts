// A blob delete that is done only when it is seen done. Some stores remove a blob in several writes (GridFS: the
// chunks, then the file record), and a failover between them leaves bytes behind while the caller (a purge, an
// erasure) would report success: so the removal is run again until a check finds nothing left, with a pause
// between attempts long enough to outlast a replica-set election, and fails loudly when it never gets there.
import { setTimeout as sleep } from "node:timers/promises";

export interface DeleteSteps {
  /** Removes what is left of the blob; safe to run again after it failed halfway. */
  remove(): Promise<void>;
  /** How many pieces of the blob are still stored (0: gone). */
  left(): Promise<number>;
}

export class BlobNotDeletedError extends Error {
  constructor(what: string, attempts: number, cause: unknown) {
    super(`${what} was still stored after ${attempts} attempts to delete it`, { cause });
    this.name = "BlobNotDeletedError";
  }
}

/** Pauses before the 2nd, 3rd, ... attempt: about 15 s in all, past a replica set's election (about 10 s). */
export const DELETE_RETRY_DELAYS_MS: readonly number[] = [250, 500, 1_000, 2_000, 4_000, 8_000];

export async function deleteVerified(
  what: string,
  steps: DeleteSteps,
  delaysMs: readonly number[] = DELETE_RETRY_DELAYS_MS,
): Promise<void> {
  let lastError: unknown = null;
  for (let attempt = 0; attempt <= delaysMs.length; attempt++) {
    if (attempt > 0) await sleep(delaysMs[attempt - 1] ?? 0);
    try {
      await steps.remove();
      const left = await steps.left();
      if (left === 0) return;
      lastError = new Error(`${left} pieces left after the delete`);
    } catch (error) {
      lastError = error;
    }
  }
  throw new BlobNotDeletedError(what, delaysMs.length + 1, lastError);
}
