// Read-your-writes waits: with the projector in the same process a wait is woken by its announcement and never
// reads the checkpoint; without it (split mode) the watcher polls the read store.
import { describe, expect, it } from "vitest";
import { CheckpointWatcher } from "../../shared/read-store/checkpoint-watcher.ts";

function countingCheckpoint(value: () => number) {
  const store = {
    reads: 0,
    async checkpoint() {
      store.reads += 1;
      return value();
    },
  };
  return store;
}

describe("CheckpointWatcher", () => {
  it("with the projector in process, resolves a wait when the batch is announced, without reading the checkpoint", async () => {
    const store = countingCheckpoint(() => 0);
    const watcher = new CheckpointWatcher(store, { projectorInProcess: true });
    watcher.announce(3);
    expect(await watcher.waitFor(3, 10_000)).toBe(true);
    const waiting = watcher.waitFor(7, 10_000);
    watcher.announce(6);
    watcher.announce(7);
    expect(await waiting).toBe(true);
    expect(store.reads).toBe(0);
    watcher.close();
  });

  it("with the projector in process, answers false after the bound when no batch reaches the position", async () => {
    const store = countingCheckpoint(() => 100);
    const watcher = new CheckpointWatcher(store, { projectorInProcess: true });
    watcher.announce(1);
    expect(await watcher.waitFor(2, 30)).toBe(false);
    watcher.close();
  });

  it("with the projector in process, says how far the read models got from its announcements, without reading the checkpoint", async () => {
    const store = countingCheckpoint(() => 0);
    const watcher = new CheckpointWatcher(store, { projectorInProcess: true });
    watcher.announce(5);
    expect(await watcher.current()).toBe(5);
    watcher.announce(9);
    expect(await watcher.current()).toBe(9);
    expect(store.reads).toBe(0);
    watcher.close();
  });

  it("without a projector in process, reads the checkpoint for how far the read models got", async () => {
    let checkpoint = 3;
    const store = countingCheckpoint(() => checkpoint);
    const watcher = new CheckpointWatcher(store);
    expect(await watcher.current()).toBe(3);
    checkpoint = 8;
    expect(await watcher.current()).toBe(8);
    watcher.close();
  });

  it("without a projector in process, polls the read store until the checkpoint reaches the position", async () => {
    let checkpoint = 0;
    const store = countingCheckpoint(() => checkpoint);
    const watcher = new CheckpointWatcher(store, { pollMs: 5 });
    const waiting = watcher.waitFor(4, 10_000);
    checkpoint = 4;
    expect(await waiting).toBe(true);
    expect(store.reads).toBeGreaterThan(0);
    watcher.close();
  });
});
