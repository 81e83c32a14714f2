// A subscription built from readAll: catch up in batches, then wait for a wake-up (or a short poll) and go on.
import type { BatchHandler, RecordedEvent, Subscription } from "./event-store.port.ts";

export interface WakeSource {
  /** Registers a listener called after every local commit; returns the unregister function. */
  onAppend(listener: () => void): () => void;
}

export function catchUpSubscription(options: {
  afterPosition: number;
  batchSize: number;
  /** Bytes of events one batch holds at most (at least one event). */
  maxBytes: number;
  pollMs: number;
  readAll: (afterPosition: number, limit: number, maxBytes: number) => Promise<RecordedEvent[]>;
  wake: WakeSource;
  handler: BatchHandler;
}): Subscription {
  let stopped = false;
  let wakeUp: (() => void) | null = null;
  let pending = false;
  const unregister = options.wake.onAppend(() => {
    pending = true;
    wakeUp?.();
  });

  const waitForAppend = (): Promise<void> =>
    new Promise((resolve) => {
      if (pending || stopped) return resolve();
      const timer = setTimeout(finish, options.pollMs);
      function finish(): void {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = finish;
    });

  const loop = async (): Promise<void> => {
    let position = options.afterPosition;
    try {
      while (!stopped) {
        pending = false;
        const batch = await options.readAll(position, options.batchSize, options.maxBytes);
        if (stopped) break;
        if (batch.length === 0) {
          await waitForAppend();
          continue;
        }
        await options.handler(batch);
        const last = batch[batch.length - 1];
        if (last) position = last.position;
        // The handler and the reads can be synchronous underneath (SQLite): without a turn of the event loop
        // between batches a long catch-up would hold the whole process, its HTTP server included.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      unregister();
    }
  };

  const done = loop();
  return {
    done,
    async stop() {
      stopped = true;
      wakeUp?.();
      await done.catch(() => undefined);
    },
  };
}
