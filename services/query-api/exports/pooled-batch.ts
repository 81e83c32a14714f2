// A batch of items handed to the worker pool as one task, and again one by one when the batch as a whole ran
// past the pool's time or memory limit: one pathological item costs only itself, the others are done.
import { AppError } from "../../../shared/errors/app-error.ts";

const pastLimits = (error: unknown): boolean =>
  error instanceof AppError && (error.code === "too_complex" || error.code === "too_large");

/** Each item's result in order, or null for an item that alone is past the pool's limits. */
export async function eachOrAlone<T, R>(
  items: readonly T[],
  run: (items: readonly T[]) => Promise<readonly R[]>,
): Promise<Array<R | null>> {
  if (items.length === 0) return [];
  try {
    return [...(await run(items))];
  } catch (error) {
    if (!pastLimits(error)) throw error;
    if (items.length === 1) return [null];
  }
  const results: Array<R | null> = [];
  for (const item of items) results.push(...(await eachOrAlone([item], run)));
  return results;
}
