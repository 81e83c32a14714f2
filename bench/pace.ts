// Writes at a steady rate: the benchmarks that time a projection or a feed under a given number of writes a second.

/** Waits until the `i`th write of a pace of `perSecond`, started at `started` (performance.now()), is due. */
export async function untilDue(started: number, i: number, perSecond: number): Promise<void> {
  const wait = started + (i * 1000) / perSecond - performance.now();
  if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
}
