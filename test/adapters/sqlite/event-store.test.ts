import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StreamConflictError } from "../../../shared/event-store/event-store.port.ts";
import { eventStoreContract, newEvent } from "../../contracts/event-store.contract.ts";
import { sqliteEventStoreFactory } from "../../support/stores.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { SqliteEventStore } from "../../../shared/adapters/sqlite/sqlite.event-store.ts";

eventStoreContract("SQLite", () => sqliteEventStoreFactory());
eventStoreContract("SQLite with group commit", () => sqliteEventStoreFactory({ groupCommit: true }));

// Beyond the contract: event ids are unique across the whole SQLite log (EventStoreDB checks them per stream
// only, and the application never reuses one), so a batch that repeats a stored id elsewhere is refused whole.
describe("the SQLite event store", () => {
  it("reads the global log bounded by bytes when asked, always at least one event, never loading the rest", async () => {
    const { store, cleanup } = await sqliteEventStoreFactory();
    const stream = `page-${randomUUID()}`;
    await store.append(
      stream,
      Array.from({ length: 5 }, (_, index) => newEvent("ThingHappened", { n: index, text: "x".repeat(100_000) })),
      "no_stream",
    );
    const all = await store.readAll(0, 10);
    expect((await store.readAll(0, 10, 250_000)).map((event) => event.id)).toEqual(
      all.slice(0, 2).map((event) => event.id),
    );
    expect(await store.readAll(0, 10, 1)).toHaveLength(1);
    expect(await store.readAll(0, 3, 10_000_000)).toHaveLength(3);
    expect(await store.readAll(all.at(-1)?.position ?? 0, 10, 1)).toEqual([]);
    await cleanup();
  });

  it("refuses a batch that reuses an event id stored in another stream, and appends none of it", async () => {
    const { store, cleanup } = await sqliteEventStoreFactory();
    const [a, b] = [`page-${randomUUID()}`, `page-${randomUUID()}`];
    const stored = newEvent();
    await store.append(a, [stored], "no_stream");
    await expect(store.append(b, [newEvent(), stored], "no_stream")).rejects.toBeInstanceOf(StreamConflictError);
    expect(await store.read(b)).toEqual({ revision: -1, events: [] });
    expect((await store.read(a)).events).toHaveLength(1);
    await cleanup();
  });

  it("refuses a reused event id in a group commit without failing the appends beside it", async () => {
    const { store, cleanup } = await sqliteEventStoreFactory({ groupCommit: true });
    const [a, b, c] = [`page-${randomUUID()}`, `page-${randomUUID()}`, `page-${randomUUID()}`];
    const stored = newEvent();
    await store.append(a, [stored], "no_stream");
    const outcomes = await Promise.allSettled([
      store.append(b, [newEvent()], "no_stream"),
      store.append(c, [newEvent(), stored], "no_stream"),
      store.append(a, [stored], "no_stream"),
      store.append(b, [newEvent()], 0),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(outcomes[1]?.status === "rejected" && outcomes[1].reason).toBeInstanceOf(StreamConflictError);
    expect(await store.read(c)).toEqual({ revision: -1, events: [] });
    expect((await store.read(b)).revision).toBe(1);
    await cleanup();
  });

  it("keeps every event of a long-lived store through its background checkpoints, and leaves no WAL once closed", async () => {
    const dir = await tempDir();
    const file = join(dir.path, "events.sqlite");
    const store = new SqliteEventStore(file);
    for (let n = 0; n < 600; n += 1)
      await store.append(
        `page-${randomUUID()}`,
        [newEvent("ThingHappened", { n, text: "x".repeat(4_000) })],
        "no_stream",
      );
    await store.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reopened = new SqliteEventStore(file);
    expect((await reopened.readAll(0, 1_000)).map((event) => event.data)).toEqual(
      Array.from({ length: 600 }, (_, n) => ({ n, text: "x".repeat(4_000) })),
    );
    await reopened.close();
    await dir.remove();
  });
});
