// The webhook delivery log's contract: what every adapter (SQLite, MongoDB) must do the same way.
import { afterEach, describe, expect, it } from "vitest";
import {
  BACKLOG_COUNT_MAX,
  type NewDelivery,
  type WebhookDeliveries,
} from "../../shared/webhooks/webhook-deliveries.port.ts";

export type DeliveriesFactory = () => Promise<{
  store: WebhookDeliveries;
  second: () => Promise<WebhookDeliveries>;
  cleanup: () => Promise<void>;
}>;

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
const row = (
  id: string,
  webhookId: string,
  position: number,
  due = at(0),
  ownerId = `owner-of-${webhookId}`,
): NewDelivery => ({
  id,
  webhookId,
  ownerId,
  eventId: `event-${position}`,
  type: "page.created",
  position,
  payload: "{}",
  createdAt: at(0),
  nextAttemptAt: due,
});

export function webhookDeliveriesContract(name: string, factory: DeliveriesFactory): void {
  describe(`${name} webhook delivery log`, () => {
    let cleanup: () => Promise<void> = async () => undefined;
    afterEach(async () => cleanup());
    const open = async () => {
      const made = await factory();
      cleanup = made.cleanup;
      return made;
    };

    it("counts pending rows for the queue metric up to its bound, and finds the oldest", async () => {
      const { store } = await open();
      const many = Array.from({ length: BACKLOG_COUNT_MAX + 50 }, (_, index) => ({
        ...row(`m${index}`, `w${index % 40}`, index + 1),
        createdAt: at(index % 50),
      }));
      await store.enqueue(many, BACKLOG_COUNT_MAX + 50);
      expect(await store.backlog()).toEqual({ pending: BACKLOG_COUNT_MAX, oldestCreatedAt: at(0) });
    });

    it("adds a row once however often it is enqueued, and moves the follower's checkpoint forward only", async () => {
      const { store } = await open();
      await store.enqueue([row("a", "w1", 1)], 5);
      await store.enqueue([row("a", "w1", 1)], 3);
      expect(await store.list("w1", null, 10)).toHaveLength(1);
      expect(await store.followerCheckpoint()).toBe(5);
    });

    it("keeps the trace context a row was enqueued with, and none for a row without", async () => {
      const { store } = await open();
      const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
      await store.enqueue([{ ...row("t1", "w1", 1), traceparent }, row("t2", "w2", 2)], 2);
      const claimed = await store.claimDue(at(1), at(60), 10, 10);
      expect(Object.fromEntries(claimed.map((delivery) => [delivery.id, delivery.traceparent ?? null]))).toEqual({
        t1: traceparent,
        t2: null,
      });
    });

    it("leases one due row per webhook, none to a second claimer until the lease runs out", async () => {
      const { store, second } = await open();
      const other = await second();
      await store.enqueue([row("a", "w1", 1), row("b", "w1", 2), row("c", "w2", 3), row("d", "w3", 4, at(100))]);
      const first = await store.claimDue(at(1), at(60), 10, 4);
      expect(first.map((claimed) => claimed.id).sort()).toEqual(["a", "c"]);
      expect(await other.claimDue(at(2), at(61), 10, 4)).toEqual([]);
      const again = await other.claimDue(at(61), at(120), 10, 4);
      expect(again.map((claimed) => claimed.id).sort()).toEqual(["a", "c"]);
    });

    it("records an outcome and releases the lease; a retry makes a row due again", async () => {
      const { store } = await open();
      await store.enqueue([row("a", "w1", 1), row("b", "w1", 2)]);
      await store.claimDue(at(1), at(60), 10, 4);
      await store.record("a", {
        status: "delivered",
        attempts: 1,
        lastResponseStatus: 200,
        lastError: null,
        deliveredAt: at(2),
        nextAttemptAt: null,
      });
      expect((await store.claimDue(at(3), at(60), 10, 4)).map((claimed) => claimed.id)).toEqual(["b"]);
      expect(await store.get("w1", "a")).toMatchObject({ status: "delivered", attempts: 1, lastResponseStatus: 200 });
      expect(await store.retry("w1", "a", at(4))).toBe(true);
      expect(await store.retry("w2", "a", at(4))).toBe(false);
      expect(await store.get("w1", "a")).toMatchObject({ status: "pending", attempts: 1 });
    });

    it("a retry asked for while a row is being sent does not let a second claimer send it at once", async () => {
      const { store, second } = await open();
      const other = await second();
      await store.enqueue([row("a", "w1", 1)]);
      expect(await store.claimDue(at(1), at(60), 10, 4)).toHaveLength(1);
      expect(await store.retry("w1", "a", at(2))).toBe(true);
      expect(await other.claimDue(at(3), at(61), 10, 4)).toEqual([]);
    });

    it("lists newest first with a cursor, keeps replays until done, and purges old rows", async () => {
      const { store } = await open();
      await store.enqueue([row("a", "w1", 1), row("b", "w1", 2), row("c", "w1", 3)]);
      const [newest, next] = await store.list("w1", null, 2);
      expect([newest?.id, next?.id]).toEqual(["c", "b"]);
      expect((await store.list("w1", next?.seq ?? null, 2)).map((item) => item.id)).toEqual(["a"]);
      expect(await store.addReplay({ id: "r", webhookId: "w1", cursor: 0, upTo: 10, createdAt: at(0) }, 1)).toBe(true);
      await store.advanceReplay("r", [row("d", "w1", 4)], 5);
      expect(await store.replays(10)).toEqual([expect.objectContaining({ id: "r", cursor: 5 })]);
      await store.advanceReplay("r", [], 10);
      expect(await store.replays(10)).toEqual([]);
      expect(await store.backlog()).toEqual({ pending: 4, oldestCreatedAt: at(0) });
      expect(await store.purge(at(1))).toBe(4);
    });

    it("numbers rows in the order they were added, across two writers", async () => {
      const { store, second } = await open();
      const other = await second();
      const ids: string[] = [];
      for (let index = 0; index < 60; index += 1) {
        ids.push(`r${index}`);
        await (index % 2 === 0 ? store : other).enqueue([row(`r${index}`, "w1", index)]);
      }
      const listed = await store.list("w1", null, 100);
      expect(listed.map((item) => item.id)).toEqual([...ids].reverse());
      expect(listed.every((item, index) => index === 0 || (listed[index - 1]?.seq ?? 0) > item.seq)).toBe(true);
    });

    it("two notifiers claiming at once lease one row of a webhook between them", async () => {
      const { store, second } = await open();
      const other = await second();
      await store.enqueue([row("a", "w1", 1), row("b", "w1", 2), row("c", "w1", 3), row("d", "w1", 4)]);
      const [mine, theirs] = await Promise.all([
        store.claimDue(at(1), at(60), 10, 4),
        other.claimDue(at(1), at(60), 10, 4),
      ]);
      expect([...mine, ...theirs].map((claimed) => claimed.id)).toEqual(["a"]);
    });

    it("finds a webhook's due row behind thousands queued for another webhook", async () => {
      const { store } = await open();
      const flood = Array.from({ length: 3_000 }, (_, index) =>
        row(`flood-${index}`, "w-busy", index, at(0), "owner-a"),
      );
      await store.enqueue(flood);
      await store.enqueue([row("lone", "w-quiet", 5_000, at(1), "owner-b")]);
      const claimed = await store.claimDue(at(2), at(60), 2, 4);
      expect(claimed.map((item) => item.id).sort()).toEqual(["flood-0", "lone"]);
    });

    it("leases at most perOwner rows of one owner at once, counting other notifiers' leases, and still serves another owner", async () => {
      const { store, second } = await open();
      const other = await second();
      const many = Array.from({ length: 10 }, (_, index) => row(`a${index}`, `wa${index}`, index, at(0), "owner-a"));
      await store.enqueue([...many, row("b0", "wb", 100, at(0), "owner-b")]);
      const first = await store.claimDue(at(1), at(60), 2, 3);
      expect(first).toHaveLength(2);
      const next = await other.claimDue(at(1), at(60), 16, 3);
      const owners = [...first, ...next].map((item) => item.ownerId);
      expect(owners.filter((owner) => owner === "owner-a")).toHaveLength(3);
      expect(owners.filter((owner) => owner === "owner-b")).toHaveLength(1);
      expect(await store.claimDue(at(2), at(60), 16, 3)).toEqual([]);
    });

    it("serves the webhooks of an owner in turn: the one served least recently first", async () => {
      const { store } = await open();
      await store.enqueue([
        row("x1", "wx", 1, at(0), "owner-a"),
        row("x2", "wx", 2, at(0), "owner-a"),
        row("y1", "wy", 3, at(0), "owner-a"),
        row("y2", "wy", 4, at(0), "owner-a"),
      ]);
      const served: string[] = [];
      for (let turn = 0; turn < 4; turn += 1) {
        const [claimed] = await store.claimDue(at(1 + turn), at(60), 1, 1);
        if (!claimed) break;
        served.push(claimed.webhookId);
        await store.record(claimed.id, {
          status: "delivered",
          attempts: 1,
          lastResponseStatus: 200,
          lastError: null,
          deliveredAt: at(1 + turn),
          nextAttemptAt: null,
        });
      }
      expect(served).toEqual(["wx", "wy", "wx", "wy"]);
    });

    it("forgets an erased owner in bounded steps: their deliveries, queues and replays go, another owner's stay, and nothing of theirs from before is added again", async () => {
      const { store, second } = await open();
      const other = await second();
      const job = (id: string, webhookId: string, upTo = 10) => ({ id, webhookId, cursor: 0, upTo, createdAt: at(0) });
      const theirs = Array.from({ length: 5 }, (_, index) =>
        row(`a${index}`, index % 2 === 0 ? "wa1" : "wa2", index + 1, at(0), "owner-a"),
      );
      await store.enqueue(
        [...theirs, row("b0", "wb", 10, at(0), "owner-b"), row("b1", "wb", 11, at(0), "owner-b")],
        11,
      );
      expect(await store.addReplay(job("ra", "wa1"), 1)).toBe(true);
      expect(await store.addReplay(job("rb", "wb"), 1)).toBe(true);
      // One of theirs is being sent as they are erased; its outcome arrives afterwards.
      const [sending] = await store.claimDue(at(1), at(60), 1, 4);
      if (!sending) throw new Error("nothing was claimed");
      expect(sending.ownerId).toBe("owner-a");

      // Two notifiers forget at once, a step of at most 2 rows at a time each, until a step deletes nothing.
      const erasure = { ownerId: "owner-a", position: 15, erasedAt: at(10) };
      const forget = async (on: WebhookDeliveries) => {
        const steps: number[] = [];
        for (let step = await on.forgetOwner(erasure, 2); step > 0; step = await on.forgetOwner(erasure, 2))
          steps.push(step);
        return steps;
      };
      const steps = (await Promise.all([forget(store), forget(other)])).flat();
      expect(steps.every((step) => step <= 2)).toBe(true);
      // Five deliveries, one replay, and the queues of two webhooks.
      expect(steps.reduce((sum, step) => sum + step, 0)).toBe(8);
      expect(await store.forgetOwner(erasure, 2)).toBe(0);

      await store.record(sending.id, {
        status: "failed",
        attempts: 1,
        lastResponseStatus: null,
        lastError: "getaddrinfo ENOTFOUND hooks.example.com",
        deliveredAt: null,
        nextAttemptAt: null,
      });
      expect(await store.get(sending.webhookId, sending.id)).toBeNull();
      expect(await store.list("wa1", null, 10)).toEqual([]);
      expect(await store.list("wa2", null, 10)).toEqual([]);
      expect(await store.retry("wa1", "a0", at(2))).toBe(false);
      expect(await store.undelivered("wa1", 10)).toBe(0);
      expect((await store.replays(10)).map((item) => item.id)).toEqual(["rb"]);
      expect((await store.list("wb", null, 10)).map((item) => item.id)).toEqual(["b1", "b0"]);
      expect((await store.claimDue(at(61), at(120), 10, 4)).map((item) => item.id)).toEqual(["b0"]);
      expect(await store.backlog()).toEqual({ pending: 2, oldestCreatedAt: at(0) });

      // A notifier that matched events against read models from before the erasure adds nothing of theirs.
      await other.enqueue([row("late", "wa1", 12, at(0), "owner-a"), row("b2", "wb", 13, at(0), "owner-b")], 13);
      expect(await store.addReplay(job("ra2", "wa1"), 1)).toBe(true);
      await other.advanceReplay("ra2", [row("replayed", "wa1", 3, at(0), "owner-a")], 10);
      expect(await store.list("wa1", null, 10)).toEqual([]);
      expect(await store.undelivered("wa1", 10)).toBe(0);
      expect((await store.list("wb", null, 10)).map((item) => item.id)).toEqual(["b2", "b1", "b0"]);
      expect(await store.followerCheckpoint()).toBe(13);

      // The same id registered afresh after the erasure: its new webhook's deliveries and replay are kept, also
      // when a notifier meets the erasure again.
      await store.enqueue([row("anew", "wa3", 20, at(0), "owner-a")], 20);
      expect(await store.addReplay(job("ra3", "wa3", 30), 1)).toBe(true);
      expect(await forget(other)).toEqual([]);
      expect((await store.list("wa3", null, 10)).map((item) => item.id)).toEqual(["anew"]);
      expect((await store.replays(10)).map((item) => item.id).sort()).toEqual(["ra3", "rb"]);
      expect((await store.claimDue(at(121), at(180), 10, 4)).map((item) => item.id).sort()).toEqual(["anew", "b0"]);

      // The record of the erasure goes with the retention that ends after it, not before.
      await store.purge(at(5));
      await store.enqueue([{ ...row("still", "wa1", 14, at(20), "owner-a"), createdAt: at(20) }]);
      expect(await store.list("wa1", null, 10)).toEqual([]);
      await store.purge(at(11));
      await store.enqueue([{ ...row("again", "wa1", 14, at(20), "owner-a"), createdAt: at(20) }]);
      expect((await store.list("wa1", null, 10)).map((item) => item.id)).toEqual(["again"]);
    });

    it("holds at most the given number of replays per webhook, and counts a webhook's undelivered rows", async () => {
      const { store } = await open();
      const job = (id: string, webhookId: string) => ({ id, webhookId, cursor: 0, upTo: 10, createdAt: at(0) });
      expect(await store.addReplay(job("r1", "w1"), 1)).toBe(true);
      expect(await store.addReplay(job("r2", "w1"), 1)).toBe(false);
      expect(await store.addReplay(job("r3", "w2"), 1)).toBe(true);
      await store.advanceReplay("r1", [row("a", "w1", 1), row("b", "w1", 2), row("c", "w1", 3)], 10);
      expect(await store.addReplay(job("r4", "w1"), 1)).toBe(true);
      expect(await store.undelivered("w1", 100)).toBe(3);
      expect(await store.undelivered("w1", 2)).toBe(2);
      expect((await store.replays(10)).map((item) => item.id).sort()).toEqual(["r3", "r4"]);
    });
  });
}
