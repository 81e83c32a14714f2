// The worker pool's scheduling policy, pure: tasks wait per caller (a user; a share link's owner for its anonymous
// readers), and a free thread goes to the waiting caller served longest ago, so callers take turns in rounds and
// one caller's queue delays another caller's next task by at most the tasks already running. A caller may hold
// at most `perCaller` tasks (running and waiting together); past it, or past the pool's whole queue, a task is
// refused. The pool (worker-pool.ts) holds one of these and only starts what it says.

export interface FairScheduleLimits {
  /** Tasks that may run at once (the pool's threads). */
  readonly slots: number;
  /** Tasks one caller may run at once. */
  readonly runningPerCaller: number;
  /** Tasks one caller may hold in the pool, running and waiting together. */
  readonly perCaller: number;
  /** Tasks that may wait, all callers together. */
  readonly queue: number;
}

export type Admission =
  | { readonly kind: "start" }
  | { readonly kind: "wait" }
  | { readonly kind: "refused"; readonly reason: "caller_full" | "queue_full" };

interface CallerState<T> {
  running: number;
  readonly waiting: T[];
  /** When this caller's last task started, as a count of starts: the lowest among the waiting goes next. */
  servedAt: number;
}

export class FairSchedule<T> {
  private readonly callers = new Map<string, CallerState<T>>();
  private running = 0;
  private waitingTotal = 0;
  private starts = 0;

  constructor(private readonly limits: FairScheduleLimits) {}

  /** Whether `caller`'s task starts now, waits for its turn, or is refused. A waiting task is kept until `next` hands it out. */
  submit(caller: string, task: T): Admission {
    const state: CallerState<T> = this.callers.get(caller) ?? { running: 0, waiting: [], servedAt: 0 };
    if (state.running + state.waiting.length >= this.limits.perCaller)
      return { kind: "refused", reason: "caller_full" };
    if (
      this.running < this.limits.slots &&
      state.running < this.limits.runningPerCaller &&
      state.waiting.length === 0
    ) {
      this.callers.set(caller, state);
      this.begin(state);
      return { kind: "start" };
    }
    if (this.waitingTotal >= this.limits.queue) return { kind: "refused", reason: "queue_full" };
    this.callers.set(caller, state);
    state.waiting.push(task);
    this.waitingTotal += 1;
    return { kind: "wait" };
  }

  /** A task of `caller` ended: the tasks that start now, in the order they should start. */
  finish(caller: string): T[] {
    const state = this.callers.get(caller);
    if (state && state.running > 0) {
      state.running -= 1;
      this.running -= 1;
      this.forget(caller, state);
    }
    const started: T[] = [];
    for (let task = this.next(); task !== null; task = this.next()) started.push(task);
    return started;
  }

  /** Every waiting task, taken out (the pool is closing). */
  drain(): T[] {
    const tasks = [...this.callers.values()].flatMap((state) => state.waiting.splice(0));
    this.waitingTotal = 0;
    for (const [caller, state] of this.callers) this.forget(caller, state);
    return tasks;
  }

  /** Tasks of `caller` running and waiting. */
  held(caller: string): number {
    const state = this.callers.get(caller);
    return state ? state.running + state.waiting.length : 0;
  }

  private next(): T | null {
    if (this.running >= this.limits.slots) return null;
    let chosen: CallerState<T> | null = null;
    for (const state of this.callers.values()) {
      if (state.waiting.length === 0 || state.running >= this.limits.runningPerCaller) continue;
      if (!chosen || state.servedAt < chosen.servedAt) chosen = state;
    }
    const task = chosen?.waiting.shift();
    if (!chosen || task === undefined) return null;
    this.waitingTotal -= 1;
    this.begin(chosen);
    return task;
  }

  private begin(state: CallerState<T>): void {
    this.starts += 1;
    state.servedAt = this.starts;
    state.running += 1;
    this.running += 1;
  }

  /** A caller with nothing running or waiting is dropped: the map holds only callers with tasks. */
  private forget(caller: string, state: CallerState<T>): void {
    if (state.running === 0 && state.waiting.length === 0) this.callers.delete(caller);
  }
}
