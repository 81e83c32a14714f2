// Heavy operations one caller may run at once (a diff reads two whole versions of a page on the event loop before
// its task takes a worker): one more is refused with 429 too_many_tasks, the caller's own share, so a caller's
// concurrency is bounded before any of its cost is paid.
import { AppError } from "../errors/app-error.ts";

export class CallerSlots {
  private readonly held = new Map<string, number>();

  constructor(
    private readonly perCaller: number,
    /** What the operation is called in the refusal's message. */
    private readonly what: string,
    private readonly retryAfterSeconds = 5,
  ) {}

  /** Takes one of `caller`'s slots, or refuses; the returned function gives it back (once). */
  take(caller: string): () => void {
    const own = this.held.get(caller) ?? 0;
    if (own >= this.perCaller) {
      throw new AppError(
        "too_many_tasks",
        `at most ${this.perCaller} ${this.what} may run at once per user; retry when one ends`,
        { "retry-after": String(this.retryAfterSeconds) },
      );
    }
    this.held.set(caller, own + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.held.get(caller) ?? 1) - 1;
      if (left <= 0) this.held.delete(caller);
      else this.held.set(caller, left);
    };
  }
}
