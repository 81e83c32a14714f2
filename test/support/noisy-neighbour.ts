// A victim's latency measured while an attacker keeps a shared resource busy: the attacker's requests run in
// loops for a bounded time and count, and the victim's request is timed, given up on past a deadline.

/** Milliseconds `work` took, or Infinity when it did not end within `deadlineMs` (it is left to finish alone). */
export async function latencyWithin(deadlineMs: number, work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<number>((resolve) => {
    timer = setTimeout(() => resolve(Number.POSITIVE_INFINITY), deadlineMs);
  });
  try {
    return await Promise.race([work().then(() => performance.now() - started), gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}

/** `clients` loops sending `request` until `stop` says so or each has sent `count`; resolves with every status seen. */
export function attack(
  clients: number,
  count: number,
  request: () => Promise<number>,
): { stop: () => void; statuses: Promise<number[]> } {
  let stopped = false;
  const loop = async (): Promise<number[]> => {
    const seen: number[] = [];
    for (let sent = 0; sent < count && !stopped; sent += 1) seen.push(await request().catch(() => 0));
    return seen;
  };
  const statuses = Promise.all(Array.from({ length: clients }, loop)).then((all) => all.flat());
  return { stop: () => (stopped = true), statuses };
}
