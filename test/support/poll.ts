// Polling with a deadline, for what becomes true eventually (a projection, a delivery, a process): the tests'
// one way to wait, never a sleep.

type Timing = number | { readonly timeoutMs?: number; readonly intervalMs?: number };

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_INTERVAL_MS = 20;

const settings = (timing: Timing | undefined) =>
  typeof timing === "number"
    ? { timeoutMs: timing, intervalMs: DEFAULT_INTERVAL_MS }
    : { timeoutMs: timing?.timeoutMs ?? DEFAULT_TIMEOUT_MS, intervalMs: timing?.intervalMs ?? DEFAULT_INTERVAL_MS };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `condition` holds; after the deadline (a number: its milliseconds) fails naming `what`. */
export function until(condition: () => boolean | Promise<boolean>, what: string, timing?: Timing): Promise<void>;
/** Polls `read` until `accept` takes its value, and returns that value; after the deadline fails with the last one. */
export function until<T, U extends T>(
  read: () => T | Promise<T>,
  accept: (value: T) => value is U,
  what?: string,
  timing?: Timing,
): Promise<U>;
export function until<T>(
  read: () => T | Promise<T>,
  accept: (value: T) => boolean,
  what?: string,
  timing?: Timing,
): Promise<T>;
export async function until<T>(
  read: () => T | Promise<T>,
  acceptOrWhat: ((value: T) => boolean) | string,
  whatOrTiming?: string | Timing,
  timing?: Timing,
): Promise<T> {
  const accept = typeof acceptOrWhat === "function" ? acceptOrWhat : (value: T) => value === true;
  const what = typeof acceptOrWhat === "string" ? acceptOrWhat : typeof whatOrTiming === "string" ? whatOrTiming : "";
  const { timeoutMs, intervalMs } = settings(typeof whatOrTiming === "string" ? timing : (whatOrTiming ?? timing));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) {
      const last = typeof acceptOrWhat === "function" ? `; last value: ${JSON.stringify(value)}` : "";
      throw new Error(`timed out waiting for ${what || "the condition"}${last}`);
    }
    await pause(intervalMs);
  }
}
