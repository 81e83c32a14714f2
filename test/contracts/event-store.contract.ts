// The EventStore contract: every adapter (SQLite, EventStoreDB, ...) must pass these.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  StreamConflictError,
  StreamDeletedError,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from "../../shared/event-store/event-store.port.ts";

export function newEvent(type = "ThingHappened", data: unknown = { n: 1 }): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {
      actorId: randomUUID(),
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  };
}

/**
 * Subscribes after `afterPosition` until `count` events of `stream` arrived; returns every event delivered. Positions
 * are not dense (EventStoreDB's are byte offsets), so nothing here counts events by subtracting positions.
 */
async function collect(
  store: EventStore,
  afterPosition: number,
  stream: string,
  count: number,
): Promise<RecordedEvent[]> {
  const seen: RecordedEvent[] = [];
  let resolveDone: () => void = () => undefined;
  const enough = new Promise<void>((resolve) => (resolveDone = resolve));
  const ours = () => seen.filter((e) => e.stream === stream).length;
  const subscription = store.subscribe(
    afterPosition,
    async (batch) => {
      seen.push(...batch);
      if (ours() >= count) resolveDone();
    },
    { batchSize: 500 },
  );
  // Batches as the projector reads them: against a shared server the log holds other tests' events too.
  await Promise.race([
    enough,
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`only ${ours()} of ${count} events arrived`)), 15_000),
    ),
  ]);
  await subscription.stop();
  return seen;
}

/**
 * What an adapter's test gives the contract: the store, and, where the store can delete a stream for good (an
 * EventStoreDB tombstone; the application never does, an operator may), how to do it behind the store's back.
 */
export interface EventStoreUnderTest {
  readonly store: EventStore;
  readonly cleanup: () => Promise<void>;
  readonly tombstone?: (stream: string) => Promise<void>;
}

export function eventStoreContract(name: string, factory: () => Promise<EventStoreUnderTest>): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    let cleanup: () => Promise<void>;
    let tombstone: ((stream: string) => Promise<void>) | undefined;
    // Streams are unique per test so the suite also runs against a shared, non-empty server.
    const stream = (label: string) => `${label}-${randomUUID()}`;

    beforeEach(async () => {
      ({ store, cleanup, tombstone } = await factory());
    });
    afterEach(async () => {
      await cleanup();
    });

    it("reads back appended events in order with their data and metadata", async () => {
      const s = stream("page");
      const events = [newEvent("PageCreated", { title: "a" }), newEvent("PageRenamed", { title: "b" })];
      const result = await store.append(s, events, "no_stream");
      expect(result.nextRevision).toBe(1);
      const { revision, events: read } = await store.read(s);
      expect(revision).toBe(1);
      expect(read.map((e) => [e.id, e.type, e.revision, e.data])).toEqual([
        [events[0]?.id, "PageCreated", 0, { title: "a" }],
        [events[1]?.id, "PageRenamed", 1, { title: "b" }],
      ]);
      expect(read[0]?.metadata).toEqual(events[0]?.metadata);
      expect(read[1]?.position).toBe(result.position);
      expect(read[0]?.stream).toBe(s);
    });

    it("keeps a well-formed trace context in the metadata, and reads a malformed one as absent", async () => {
      const s = stream("page");
      const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
      const traced = newEvent("PageCreated");
      const garbled = newEvent("PageRenamed");
      await store.append(
        s,
        [
          { ...traced, metadata: { ...traced.metadata, traceparent } },
          { ...garbled, metadata: { ...garbled.metadata, traceparent: "00-not-a-trace" } },
        ],
        "no_stream",
      );
      const { events: read } = await store.read(s);
      expect(read.map((event) => event.metadata.traceparent)).toEqual([traceparent, undefined]);
    });

    it("reads an unknown stream as empty, at revision -1", async () => {
      expect(await store.read(stream("nothing"))).toEqual({ revision: -1, events: [] });
    });

    it("leaves system events ($-prefixed types) out of the global log and its subscriptions", async () => {
      const head = await store.headPosition();
      const system = `$$${stream("page")}`;
      const s = stream("page");
      await store.append(system, [newEvent("$metadata", { $maxAge: 60 })], "any");
      await store.append(s, [newEvent()], "no_stream");
      expect((await store.readAll(head, 100)).filter((e) => e.type.startsWith("$"))).toEqual([]);
      const delivered = await collect(store, head, s, 1);
      expect(delivered.filter((e) => e.type.startsWith("$"))).toEqual([]);
      expect((await store.read(system)).events.map((e) => e.type)).toEqual(["$metadata"]);
    });

    it("rejects a stale expected revision and appends nothing of the batch", async () => {
      const s = stream("page");
      await store.append(s, [newEvent()], "no_stream");
      await store.append(s, [newEvent()], 0);
      await expect(store.append(s, [newEvent(), newEvent()], 0)).rejects.toBeInstanceOf(StreamConflictError);
      await expect(store.append(s, [newEvent()], "no_stream")).rejects.toBeInstanceOf(StreamConflictError);
      expect((await store.read(s)).events).toHaveLength(2);
    });

    it("lets exactly one of two writers with the same expected revision win", async () => {
      const s = stream("page");
      await store.append(s, [newEvent()], "no_stream");
      const outcomes = await Promise.allSettled([store.append(s, [newEvent()], 0), store.append(s, [newEvent()], 0)]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      expect((await store.read(s)).events).toHaveLength(2);
    });

    it("appends concurrent batches to different streams, each whole and in one place of the global log", async () => {
      const head = await store.headPosition();
      const streams = Array.from({ length: 8 }, (_, i) => stream(`many-${i}`));
      const results = await Promise.all(streams.map((s) => store.append(s, [newEvent(), newEvent()], "no_stream")));
      expect(results.map((r) => r.nextRevision)).toEqual(streams.map(() => 1));
      expect(new Set(results.map((r) => r.position)).size).toBe(streams.length);
      const all = (await store.readAll(head, 1_000)).filter((e) => streams.includes(e.stream));
      expect(all).toHaveLength(16);
      for (const [index, s] of streams.entries()) {
        const ours = all.filter((e) => e.stream === s);
        expect(ours.map((e) => e.revision)).toEqual([0, 1]);
        // A batch is contiguous in the global log, and the append reports its last event's position.
        const at = all.indexOf(ours[0] as RecordedEvent);
        expect(all[at + 1]).toBe(ours[1]);
        expect(ours[1]?.position).toBe(results[index]?.position);
      }
    });

    it("checks concurrent appends to one stream each against its own expected revision", async () => {
      const s = stream("same");
      await store.append(s, [newEvent()], "no_stream");
      const others = [stream("beside"), stream("beside")];
      const outcomes = await Promise.allSettled([
        store.append(others[0] ?? "", [newEvent()], "no_stream"),
        store.append(s, [newEvent()], 0),
        store.append(s, [newEvent(), newEvent()], 0),
        store.append(s, [newEvent()], "no_stream"),
        store.append(s, [newEvent()], "any"),
        store.append(others[1] ?? "", [newEvent()], "no_stream"),
      ]);
      // Of the two writers expecting revision 0 exactly one wins; "no_stream" on an existing stream fails; a
      // failing append takes nothing else down with it.
      const [besideA, zeroA, zeroB, missing, anyRevision, besideB] = outcomes.map((o) => o.status);
      expect([besideA, anyRevision, besideB]).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
      expect([zeroA, zeroB].sort()).toEqual(["fulfilled", "rejected"]);
      expect(missing).toBe("rejected");
      for (const outcome of outcomes)
        if (outcome.status === "rejected") expect(outcome.reason).toBeInstanceOf(StreamConflictError);
      const winnerSize = zeroA === "fulfilled" ? 1 : 2;
      const { revision, events } = await store.read(s);
      expect(revision).toBe(1 + winnerSize);
      expect(events.map((e) => e.revision)).toEqual(Array.from({ length: 2 + winnerSize }, (_, i) => i));
      for (const other of others) expect((await store.read(other)).revision).toBe(0);
    });

    it("keeps one global order across streams", async () => {
      const head = await store.headPosition();
      const a = stream("a");
      const b = stream("b");
      const first = await store.append(a, [newEvent()], "no_stream");
      const second = await store.append(b, [newEvent(), newEvent()], "no_stream");
      const third = await store.append(a, [newEvent()], 0);
      expect(first.position).toBeGreaterThan(head);
      expect(second.position).toBeGreaterThan(first.position);
      expect(third.position).toBeGreaterThan(second.position);
      const all = await store.readAll(head, 100);
      const ours = all.filter((e) => e.stream === a || e.stream === b);
      expect(ours.map((e) => e.stream)).toEqual([a, b, b, a]);
      const positions = all.map((e) => e.position);
      expect([...positions].sort((x, y) => x - y)).toEqual(positions);
      expect(await store.headPosition()).toBeGreaterThanOrEqual(third.position);
    });

    it("treats a repeated append of the same event ids as already done", async () => {
      const s = stream("page");
      const events = [newEvent(), newEvent()];
      const first = await store.append(s, events, "no_stream");
      const again = await store.append(s, events, "no_stream");
      expect(again).toEqual(first);
      expect((await store.read(s)).events).toHaveLength(2);
    });

    it("delivers history from the start, then follows new appends", async () => {
      const s = stream("sub");
      // "The start" of this test's own history: on an empty store 0; on a shared server, not the whole $all.
      const before = await store.headPosition();
      await store.append(s, [newEvent(), newEvent()], "no_stream");
      const pending = collect(store, before, s, 4);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await store.append(s, [newEvent()], 1);
      await store.append(s, [newEvent()], 2);
      const seen = await pending;
      const ours = seen.filter((e) => e.stream === s);
      expect(ours.map((e) => e.revision)).toEqual([0, 1, 2, 3]);
      const positions = seen.map((e) => e.position);
      expect(new Set(positions).size).toBe(positions.length);
    });

    it("delivers from a given position only what came after it", async () => {
      const s = stream("sub");
      const first = await store.append(s, [newEvent(), newEvent()], "no_stream");
      await store.append(s, [newEvent("Later")], 1);
      const seen = await collect(store, first.position, s, 1);
      expect(seen.filter((e) => e.stream === s).map((e) => e.type)).toEqual(["Later"]);
      expect(seen.every((e) => e.position > first.position)).toBe(true);
    });

    it("redelivers from a stored position without gaps or repeats after a restart of the subscriber", async () => {
      const s = stream("sub");
      const start = await store.headPosition();
      await store.append(s, [newEvent(), newEvent(), newEvent(), newEvent()], "no_stream");
      const firstRun = (await collect(store, start, s, 2)).filter((e) => e.stream === s).slice(0, 2);
      const checkpoint = firstRun[1]?.position ?? start;
      const secondRun = (await collect(store, checkpoint, s, 2)).filter((e) => e.stream === s).slice(0, 2);
      const ids = [...firstRun, ...secondRun].map((e) => e.id);
      expect(new Set(ids).size).toBe(4);
      expect(ids).toEqual((await store.read(s)).events.map((e) => e.id));
    });

    it("reads the global log bounded by bytes when asked, always at least one event, and resumes after the last one read", async () => {
      const s = stream("large");
      const head = await store.headPosition();
      // Five events of about 100 KB: 250,000 bytes hold two of them, never three.
      await store.append(
        s,
        Array.from({ length: 5 }, (_, n) => newEvent("ThingHappened", { n, text: "x".repeat(100_000) })),
        "no_stream",
      );
      const ours = (events: readonly RecordedEvent[]) => events.filter((e) => e.stream === s);
      const first = await store.readAll(head, 100, 250_000);
      expect(ours(first).map((e) => e.revision)).toEqual([0, 1]);
      const next = await store.readAll(first.at(-1)?.position ?? head, 100, 250_000);
      expect(ours(next).map((e) => e.revision)).toEqual([2, 3]);
      expect(ours(await store.readAll(head, 100, 1))).toHaveLength(1);
      expect(ours(await store.readAll(head, 100, 10_000_000)).map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
    });

    it("delivers a subscription's batches bounded by bytes as well as by count", async () => {
      const s = stream("large");
      const head = await store.headPosition();
      await store.append(
        s,
        Array.from({ length: 5 }, (_, n) => newEvent("ThingHappened", { n, text: "x".repeat(100_000) })),
        "no_stream",
      );
      const batches: RecordedEvent[][] = [];
      let resolveDone: () => void = () => undefined;
      const enough = new Promise<void>((resolve) => (resolveDone = resolve));
      const subscription = store.subscribe(
        head,
        async (batch) => {
          batches.push([...batch]);
          if (batches.flat().filter((e) => e.stream === s).length >= 5) resolveDone();
        },
        { batchSize: 500, maxBytes: 250_000 },
      );
      await Promise.race([
        enough,
        new Promise((_, reject) => setTimeout(() => reject(new Error("the events did not all arrive")), 15_000)),
      ]);
      await subscription.stop();
      const bytes = (batch: readonly RecordedEvent[]) =>
        batch.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e.data)), 0);
      for (const batch of batches) expect(batch.length === 1 || bytes(batch) <= 250_000).toBe(true);
      expect(
        batches
          .flat()
          .filter((e) => e.stream === s)
          .map((e) => e.revision),
      ).toEqual([0, 1, 2, 3, 4]);
    });

    it("reads a stream deleted for good as deleted (404 to a client), and refuses to append to it", async (context) => {
      if (!tombstone) return context.skip("this store cannot tombstone a stream (only EventStoreDB can)");
      const deleted = stream("deleted");
      await store.append(deleted, [newEvent()], "no_stream");
      await tombstone(deleted);
      await expect(store.read(deleted)).rejects.toBeInstanceOf(StreamDeletedError);
      await expect(store.read(deleted)).rejects.toMatchObject({ code: "not_found" });
      await expect(store.append(deleted, [newEvent()], "any")).rejects.toBeInstanceOf(StreamDeletedError);
    });

    it("leaves a deleted stream's tombstone out of the global log and follows on past it", async (context) => {
      if (!tombstone) return context.skip("this store cannot tombstone a stream (only EventStoreDB can)");
      const deleted = stream("deleted");
      const kept = stream("kept");
      const start = await store.headPosition();
      await store.append(deleted, [newEvent()], "no_stream");
      await tombstone(deleted);
      // The tombstone is the newest record of the log: the head is still the newest event of ours.
      const head = await store.headPosition();
      expect(head).toBeGreaterThan(start);
      const after = await store.append(kept, [newEvent("AfterTheTombstone")], "no_stream");
      const read = await store.readAll(start, 100);
      expect(read.every((event) => !event.type.startsWith("$"))).toBe(true);
      expect(read.filter((event) => event.stream === kept).map((event) => event.type)).toEqual(["AfterTheTombstone"]);
      const seen = await collect(store, start, kept, 1);
      expect(seen.every((event) => !event.type.startsWith("$"))).toBe(true);
      expect(seen.some((event) => event.position === after.position)).toBe(true);
    });
  });
}
