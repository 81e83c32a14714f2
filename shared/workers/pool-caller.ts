// Whom a task of the worker pool is for: the user a request acts for, or a share link's owner for its anonymous
// readers. Set once where a request's work begins (runAsCaller), read by the pool when a task is queued, so
// every task an operation sends (a diff, a render, each note of an import, each batch of an export) is
// scheduled as that caller's without being passed through every layer between.
import { AsyncLocalStorage } from "node:async_hooks";

const callers = new AsyncLocalStorage<string>();

/** Work for no one in particular (a task started outside any request) shares one caller's turn. */
const UNATTRIBUTED = "unattributed";

export const userCaller = (userId: string): string => `user:${userId}`;

/** Runs `work` (and everything it starts) with its pool tasks counted as `caller`'s. */
export function runAsCaller<T>(caller: string, work: () => T): T {
  return callers.run(caller, work);
}

export function currentCaller(): string {
  return callers.getStore() ?? UNATTRIBUTED;
}
