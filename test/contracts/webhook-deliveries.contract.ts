// The webhook delivery log's contract: what every adapter (SQLite, MongoDB) must do the same way.
import { afterEach, describe, expect, it } from "vitest";
import type { NewDelivery, WebhookDeliveries } from "../../shared/webhooks/webhook-deliveries.port.ts";

export type DeliveriesFactory = () => Promise<{ store: WebhookDeliveries; second: () => Promise<WebhookDeliveries>; cleanup: () => Promise<void> }>;

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
const row = (id: string, webhookId: string, position: number, due = at(0)): NewDelivery => ({
  id,
  webhookId,
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
      const first = await store.claimDue(at(1), at(60), 10);
      expect(first.map((claimed) => claimed.id).sort()).toEqual(["a", "c"]);
      expect(await other.claimDue(at(2), at(61), 10)).toEqual([]);
      const again = await other.claimDue(at(61), at(120), 10);
      expect(again.map((claimed) => claimed.id).sort()).toEqual(["a", "c"]);
    });

    it("records an outcome and releases the lease; a retry makes a row due again", async () => {
      const { store } = await open();
      await store.enqueue([row("a", "w1", 1), row("b", "w1", 2)]);
      await store.claimDue(at(1), at(60), 10);
      await store.record("a", { status: "delivered", attempts: 1, lastResponseStatus: 200, lastError: null, deliveredAt: at(2), nextAttemptAt: null });
      expect((await store.claimDue(at(3), at(60), 10)).map((claimed) => claimed.id)).toEqual(["b"]);
      expect(await store.get("w1", "a")).toMatchObject({ status: "delivered", attempts: 1, lastResponseStatus: 200 });
      expect(await store.retry("w1", "a", at(4))).toBe(true);
      expect(await store.retry("w2", "a", at(4))).toBe(false);
      expect(await store.get("w1", "a")).toMatchObject({ status: "pending", attempts: 1 });
    });

    it("a retry asked for while a row is being sent does not let a second claimer send it at once", async () => {
      const { store, second } = await open();
      const other = await second();
      await store.enqueue([row("a", "w1", 1)]);
      expect(await store.claimDue(at(1), at(60), 10)).toHaveLength(1);
      expect(await store.retry("w1", "a", at(2))).toBe(true);
      expect(await other.claimDue(at(3), at(61), 10)).toEqual([]);
    });

    it("lists newest first with a cursor, keeps replays until done, and purges old rows", async () => {
      const { store } = await open();
      await store.enqueue([row("a", "w1", 1), row("b", "w1", 2), row("c", "w1", 3)]);
      const [newest, next] = await store.list("w1", null, 2);
      expect([newest?.id, next?.id]).toEqual(["c", "b"]);
      expect((await store.list("w1", next?.seq ?? null, 2)).map((item) => item.id)).toEqual(["a"]);
      await store.addReplay({ id: "r", webhookId: "w1", cursor: 0, upTo: 10, createdAt: at(0) });
      await store.advanceReplay("r", [row("d", "w1", 4)], 5);
      expect(await store.nextReplay()).toMatchObject({ id: "r", cursor: 5 });
      await store.advanceReplay("r", [], 10);
      expect(await store.nextReplay()).toBeNull();
      expect(await store.backlog()).toEqual({ pending: 4, oldestCreatedAt: at(0) });
      expect(await store.purge(at(1))).toBe(4);
    });
  });
}
