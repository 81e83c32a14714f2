// A per-key quota (API tokens per user, stored blob bytes per workspace owner): what a key holds, as the read
// models count it, plus what requests in flight in this process have reserved, must stay within the limit. A
// request reserves before it stores anything and releases when done; a reservation counts until then, so
// concurrent requests cannot each see room for themselves. Past the limit the answer is 409 quota_exceeded.
import { AppError } from "../errors/app-error.ts";

export interface QuotaOptions {
  readonly limit: number;
  /** What `key` holds now, as the read models count it. */
  readonly used: (key: string) => Promise<number>;
  /** The refusal's message, naming the limit. */
  readonly refusal: (limit: number) => string;
}

export class Quota {
  private readonly reserved = new Map<string, number>();

  constructor(private readonly options: QuotaOptions) {}

  get limit(): number {
    return this.options.limit;
  }

  /**
   * Holds `amount` of `key`'s quota until the answered release is called; refuses (409) when that would pass the
   * limit. For work whose holdings grow as it goes (an import storing a file once more for each note linking it):
   * `counted` is what the work itself stored under reservations it still holds and the read models already show,
   * so it is not counted twice.
   */
  async reserve(key: string, amount: number, counted = 0): Promise<() => void> {
    const used = (await this.options.used(key)) - counted;
    // Nothing runs between the count above and the reservation below: the check and the reservation are one step.
    const pending = this.reserved.get(key) ?? 0;
    if (used + pending + amount > this.options.limit)
      throw new AppError("quota_exceeded", this.options.refusal(this.options.limit));
    this.reserved.set(key, pending + amount);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.reserved.get(key) ?? amount) - amount;
      if (left > 0) this.reserved.set(key, left);
      else this.reserved.delete(key);
    };
  }

  /** Runs `work` holding `amount` of `key`'s quota; refuses before running it when that would pass the limit. */
  async withReserved<T>(key: string, amount: number, work: () => Promise<T>): Promise<T> {
    const release = await this.reserve(key, amount);
    try {
      return await work();
    } finally {
      release();
    }
  }
}
