// Part of the read-store contract (read-store.contract.ts). Parked events (shared/read-store/parked-events.port.ts):
// written in a batch, kept or dropped with it, listed in log order, found by stream for the projector's batch,
// counted for /readyz, and emptied by a rebuild.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { parkedKey, type ParkedEvent } from "../../../shared/read-store/parked-events.port.ts";
import type { ContractStores } from "./stores.ts";

const record = (overrides: Partial<ParkedEvent> & Pick<ParkedEvent, "position" | "stream">): ParkedEvent => ({
  eventId: randomUUID(),
  type: "PageCreated",
  projection: "pages",
  cause: "failed",
  error: "TypeError: boom",
  parkedAt: new Date(0).toISOString(),
  attempts: 1,
  ...overrides,
});

export function parkedEventsCases<Tx>(s: ContractStores<Tx>): void {
  it("parks events with their batch, lists them in log order, finds them by stream and counts them", async () => {
    const stream = `page-${randomUUID()}`;
    const first = record({ position: 500, stream });
    const behind = record({ position: 502, stream, type: "PageRenamed", cause: "behind", error: "waits" });
    const otherProjection = record({ position: 501, stream: `page-${randomUUID()}`, projection: "history" });
    await s.projection.applyBatch(502, async (tx) => {
      await s.projection.parked.park(tx, first);
      await s.projection.parked.park(tx, otherProjection);
      await s.projection.parked.park(tx, behind);
    });
    // A batch that fails keeps nothing it parked.
    await expect(
      s.projection.applyBatch(503, async (tx) => {
        await s.projection.parked.park(tx, record({ position: 503, stream }));
        throw new Error("batch failed");
      }),
    ).rejects.toThrow("batch failed");
    expect(await s.projection.parked.list(null, { after: 0, limit: 10 })).toEqual([first, otherProjection, behind]);
    expect(await s.projection.parked.list(null, { after: 500, limit: 1 })).toEqual([otherProjection]);
    expect(await s.projection.parked.count()).toBe(3);
    expect(await s.reader.parkedEvents()).toBe(3);
    await s.projection.applyBatch(null, async (tx) => {
      expect(await s.projection.parked.blocked(tx, [stream, `page-${randomUUID()}`])).toEqual(
        new Set([parkedKey("pages", stream)]),
      );
      expect(await s.projection.parked.blocked(tx, [])).toEqual(new Set());
    });
    // A batch without a position leaves the checkpoint alone.
    expect(await s.reader.checkpoint()).toBe(502);
  });

  it("records a failed retry, removes a record once, and empties them all on a rebuild", async () => {
    const stream = `page-${randomUUID()}`;
    const parked = record({ position: 600, stream });
    await s.projection.applyBatch(600, (tx) => s.projection.parked.park(tx, parked));
    await s.projection.applyBatch(null, (tx) =>
      s.projection.parked.failedAgain(tx, "pages", parked.eventId, "RangeError: again"),
    );
    expect(await s.projection.parked.list(null, { after: 0, limit: 10 })).toEqual([
      { ...parked, attempts: 2, error: "RangeError: again" },
    ]);
    let removed: boolean[] = [];
    await s.projection.applyBatch(null, async (tx) => {
      removed = [
        await s.projection.parked.remove(tx, "history", parked.eventId),
        await s.projection.parked.remove(tx, "pages", parked.eventId),
        await s.projection.parked.remove(tx, "pages", parked.eventId),
      ];
    });
    expect(removed).toEqual([false, true, false]);
    expect(await s.projection.parked.count()).toBe(0);
    await s.projection.applyBatch(601, (tx) => s.projection.parked.park(tx, record({ position: 601, stream })));
    await s.projection.beginRebuild();
    await s.projection.endRebuild();
    expect(await s.reader.parkedEvents()).toBe(0);
  });
}
