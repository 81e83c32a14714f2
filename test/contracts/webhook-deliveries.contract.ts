// The webhook delivery log's contract: what every adapter (SQLite, MongoDB) must do the same way.
import { afterEach, describe, expect, it } from "vitest";
import { BACKLOG_COUNT_MAX, type NewDelivery, type WebhookDeliveries } from "../../shared/webhooks/webhook-deliveries.port.ts";

export type DeliveriesFactory = () => Promise<{ store: WebhookDeliveries; second: () => Promise<WebhookDeliveries>; cleanup: () => Promise<void> }>;

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
const row = (id: string, webhookId: string, position: number, due = at(0), ownerId = `owner-of-${webhookId}`): NewDelivery => ({
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
      const many = Array.from({ length: BACKLOG_COUNT_MAX + 50 }, (_, index) => ({ ...row(`m${index}`, `w${index % 40}`, index + 1), createdAt: at(index % 50) }));
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
      await store.record("a", { status: "delivered", attempts: 1, lastResponseStatus: 200, lastError: null, deliveredAt: at(2), nextAttemptAt: null });
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
      const [mine, theirs] = await Promise.all([store.claimDue(at(1), at(60), 10, 4), other.claimDue(at(1), at(60), 10, 4)]);
      expect([...mine, ...theirs].map((claimed) => claimed.id)).toEqual(["a"]);
    });

    it("finds a webhook's due row behind thousands queued for another webhook", async () => {
      const { store } = await open();
      const flood = Array.from({ length: 3_000 }, (_, index) => row(`flood-${index}`, "w-busy", index, at(0), "owner-a"));
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
      await store.enqueue([row("x1", "wx", 1, at(0), "owner-a"), row("x2", "wx", 2, at(0), "owner-a"), row("y1", "wy", 3, at(0), "owner-a"), row("y2", "wy", 4, at(0), "owner-a")]);
      const served: string[] = [];
      for (let turn = 0; turn < 4; turn += 1) {
        const [claimed] = await store.claimDue(at(1 + turn), at(60), 1, 1);
        if (!claimed) break;
        served.push(claimed.webhookId);
        await store.record(claimed.id, { status: "delivered", attempts: 1, lastResponseStatus: 200, lastError: null, deliveredAt: at(1 + turn), nextAttemptAt: null });
      }
      expect(served).toEqual(["wx", "wy", "wx", "wy"]);
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
