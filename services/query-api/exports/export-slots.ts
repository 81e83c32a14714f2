// How many vault exports run at once on a query process: at most so many per user (one more is 429, the
// caller's own share) and so many in all (one more is 503, the process's). An export holds its slot until its
// zip has been sent or its reader went away.
import { AppError } from "../../../shared/errors/app-error.ts";

export interface ExportLimits {
  readonly maxPerUser: number;
  readonly maxConcurrent: number;
}

export class ExportSlots {
  private readonly perUser = new Map<string, number>();
  private running = 0;

  constructor(private readonly limits: ExportLimits) {}

  /** Takes a slot for the user's export, or refuses it; the returned function gives the slot back (once). */
  take(userId: string): () => void {
    const own = this.perUser.get(userId) ?? 0;
    if (own >= this.limits.maxPerUser) {
      throw new AppError(
        "rate_limited",
        `at most ${this.limits.maxPerUser} export${this.limits.maxPerUser === 1 ? "" : "s"} may run at once per user; wait for yours to finish`,
        { "retry-after": "10" },
      );
    }
    if (this.running >= this.limits.maxConcurrent)
      throw new AppError("unavailable", "the server is running as many exports as it can; retry shortly", {
        "retry-after": "10",
      });
    this.perUser.set(userId, own + 1);
    this.running += 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.running -= 1;
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left <= 0) this.perUser.delete(userId);
      else this.perUser.set(userId, left);
    };
  }
}
