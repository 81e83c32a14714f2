// diffPageVersions: the change between two versions of a page, computed in the process's worker pool
// (shared/workers/) so that a diff of two large, very different documents never holds the event loop. Past the
// edit-length bound jsdiff checks as it goes, or past the pool's time or memory limit, the answer is
// 422 diff_too_large; two versions whose lines alone show they differ past the bound are refused so before the
// diff takes a worker (diff-lower-bound.ts).
import { AppError } from "../errors/app-error.ts";
import type { WorkerPool } from "../workers/worker-pool.ts";
import { editLengthLowerBound } from "./diff-lower-bound.ts";
import { asLines, type PageDiff, type PageVersion } from "./page-diff.compute.ts";

export interface DiffLimits {
  /** Edit operations (lines added plus removed, roughly) past which the diff is refused. */
  readonly maxEditLength: number;
  /** Unchanged lines shown around each change. */
  readonly context: number;
  /** How long the diff may take in the pool; the pool's own task limit when absent. */
  readonly timeLimitMs?: number;
}

export const DEFAULT_DIFF_LIMITS: DiffLimits = { maxEditLength: 5_000, context: 3, timeLimitMs: 5_000 };

const tooLarge = (): AppError =>
  new AppError(
    "diff_too_large",
    "the two versions differ too much to compare here; compare closer instants, or read both versions with ?at=",
  );

/** The diff between two versions, with its unified text; 422 diff_too_large past the limits. */
export async function diffPageVersions(
  pool: Pick<WorkerPool, "run">,
  from: PageVersion,
  to: PageVersion,
  limits: DiffLimits = DEFAULT_DIFF_LIMITS,
): Promise<{ diff: PageDiff; unified: string }> {
  if (editLengthLowerBound(asLines(from.markdown), asLines(to.markdown)) > limits.maxEditLength) throw tooLarge();
  const task = { from, to, maxEditLength: limits.maxEditLength, context: limits.context };
  const outcome = await pool
    .run("pageDiff", task, limits.timeLimitMs === undefined ? {} : { timeLimitMs: limits.timeLimitMs })
    .catch((error: unknown) => {
      // Past the pool's time or memory limit: the same answer as past the edit-length bound.
      if (error instanceof AppError && (error.code === "too_complex" || error.code === "too_large")) throw tooLarge();
      throw error;
    });
  if (outcome.kind === "too_large") throw tooLarge();
  return { diff: outcome.diff, unified: outcome.unified };
}
