// The read models' layout belongs to one release: a projection store never writes its own layout into read
// models a newer release laid out (its replay switched them over while this release still ran), and opening
// one on them refuses instead of dropping them.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { ReadModelLayoutChangedError } from "../../../shared/read-store/layout-changed.ts";
import { at, position, type ContractStores } from "./stores.ts";

const user = () => ({
  id: randomUUID(),
  email: `${randomUUID()}@example.com`,
  name: "L",
  image: null,
  createdAt: at().updatedAt,
});

export function layoutCases<Tx>(s: ContractStores<Tx>): void {
  it("refuses every batch once a newer release laid the read models out, and writes nothing of it", async () => {
    const before = user();
    await s.batch(async (tx) => s.w().users.put(tx, before));
    const checkpoint = await s.reader.checkpoint();
    await s.newerRelease().layOut();
    const after = user();
    await expect(
      s.projection.applyBatch(position + 1, async (tx) => s.w().users.put(tx, after)),
    ).rejects.toBeInstanceOf(ReadModelLayoutChangedError);
    expect(await s.reader.checkpoint()).toBe(checkpoint);
    expect(await s.reader.users.get(after.id)).toBeNull();
    expect(await s.reader.users.get(before.id)).toEqual(before);
  });

  it("refuses to open a projection store on read models of a newer layout, and leaves them as they are", async () => {
    const kept = user();
    await s.batch(async (tx) => s.w().users.put(tx, kept));
    await s.newerRelease().layOut();
    await expect(s.newerRelease().openProjection()).rejects.toBeInstanceOf(ReadModelLayoutChangedError);
    expect(await s.reader.users.get(kept.id)).toEqual(kept);
  });
}
