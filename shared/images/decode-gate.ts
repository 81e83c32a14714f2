// How many image decodes run at once, and how many may wait for a turn: each decode takes a thread and up to
// ~100 MB of the decoder's buffers, so the process's memory and threads stay bounded however many uploads arrive.
import { AppError } from "../errors/app-error.ts";

export interface DecodeLimits {
  /** Decodes running at once. */
  readonly concurrency: number;
  /** Decodes of uploads that may wait for a turn; one more is refused with 503. */
  readonly queue: number;
}

/** What a caller does when every turn is taken and the queue is full: an upload is refused, an import waits. */
export type WhenBusy = "refuse" | "wait";

/** Seconds a refused upload is told to wait: about what one worst-case decode takes on two cores. */
const BUSY_RETRY_AFTER_SECONDS = 2;

export class DecodeGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limits: DecodeLimits) {}

  async run<T>(task: () => Promise<T>, whenBusy: WhenBusy): Promise<T> {
    await this.turn(whenBusy);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private turn(whenBusy: WhenBusy): Promise<void> {
    if (this.running < this.limits.concurrency) {
      this.running += 1;
      return Promise.resolve();
    }
    if (whenBusy === "refuse" && this.waiting.length >= this.limits.queue) {
      return Promise.reject(
        new AppError("unavailable", "too many images are being checked right now; retry shortly", {
          "retry-after": String(BUSY_RETRY_AFTER_SECONDS),
        }),
      );
    }
    // The turn passes straight from the releasing decode to this one, so `running` never drops in between.
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}
