// Read-your-writes (docs/guide/consistency.md): wait, bounded, until the read models reach a position. An in-process
// projector announces each batch and wakes the waiters itself; without one (split mode) the watcher polls the
// read store's checkpoint.
import type { ReadStore } from "./read-store.port.ts";

/** How far the read models have got, as the APIs wait on it (read-your-writes). */
export interface ProjectionProgress {
  /** The read models' checkpoint now. */
  current(): Promise<number>;
  /** Resolves true once the read models reflect `position`, false after `timeoutMs`. */
  waitFor(position: number, timeoutMs: number): Promise<boolean>;
}

interface Waiter {
  readonly position: number;
  readonly resolve: (reached: boolean) => void;
}

export class CheckpointWatcher implements ProjectionProgress {
  private reached = 0;
  private waiters: Waiter[] = [];
  private poller: NodeJS.Timeout | null = null;

  private readonly pollMs: number;
  private readonly projectorInProcess: boolean;

  /**
   * `projectorInProcess`: the process's own projector announces every batch it commits (and where it resumes),
   * so neither a wait nor `current()` reads the checkpoint: the announcements say how far it got.
   */
  constructor(
    private readonly readStore: Pick<ReadStore, "checkpoint">,
    options: { pollMs?: number; projectorInProcess?: boolean } = {},
  ) {
    this.pollMs = options.pollMs ?? 20;
    this.projectorInProcess = options.projectorInProcess ?? false;
  }

  /** Called by an in-process projector after each committed batch. */
  announce(position: number): void {
    if (position <= this.reached) return;
    this.reached = position;
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.position <= position) waiter.resolve(true);
      else still.push(waiter);
    }
    this.waiters = still;
    if (still.length === 0) this.stopPolling();
  }

  async current(): Promise<number> {
    // An in-process projector has announced every batch it committed (and where it started or resumed), so
    // what it announced is the checkpoint: reading it again would cost every `?at=` and token-carrying
    // read a statement of its own.
    if (!this.projectorInProcess) this.announce(await this.readStore.checkpoint());
    return this.reached;
  }

  async waitFor(position: number, timeoutMs: number): Promise<boolean> {
    if (position <= this.reached) return true;
    if (!this.projectorInProcess) {
      this.announce(await this.readStore.checkpoint());
      if (position <= this.reached) return true;
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      const waiter: Waiter = {
        position,
        resolve: (ok) => {
          clearTimeout(timer);
          resolve(ok);
        },
      };
      this.waiters.push(waiter);
      this.startPolling();
    });
  }

  private startPolling(): void {
    if (this.poller || this.projectorInProcess) return;
    this.poller = setInterval(() => {
      this.readStore.checkpoint().then(
        (position) => this.announce(position),
        () => undefined,
      );
    }, this.pollMs);
    this.poller.unref();
  }

  private stopPolling(): void {
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
  }

  close(): void {
    this.stopPolling();
    for (const waiter of this.waiters) waiter.resolve(false);
    this.waiters = [];
  }
}
