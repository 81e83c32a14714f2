// Fair claiming of due webhook deliveries, as every delivery store applies it: a window in the store's order, at
// most `perOwner` of one owner's webhooks in flight, at most `limit` rows a claim.
import { describe, expect, it } from "vitest";
import { FairClaim } from "../../shared/webhooks/fair-claim.ts";
import type { DeliveryRecord } from "../../shared/webhooks/webhook-deliveries.port.ts";

const delivery = (webhookId: string, ownerId: string): DeliveryRecord => ({
  id: `${webhookId}-row`,
  webhookId,
  ownerId,
  eventId: "event",
  type: "page.created",
  position: 1,
  payload: "{}",
  status: "pending",
  attempts: 0,
  lastResponseStatus: null,
  lastError: null,
  createdAt: "2026-11-01T10:00:00.000Z",
  deliveredAt: null,
  nextAttemptAt: "2026-11-01T10:00:00.000Z",
  seq: 1,
});
const queue = (webhookId: string, ownerId: string) => ({ webhookId, ownerId });

/** Leases every turn except the webhooks in `empty`, as a store with nothing due for them would. */
function claimAll(claim: FairClaim, window: ReturnType<typeof queue>[], empty: readonly string[] = []): string[] {
  for (const turn of claim.turns(window, (candidate) => candidate.ownerId)) {
    if (!empty.includes(turn.webhookId)) claim.leased(turn.ownerId, delivery(turn.webhookId, turn.ownerId));
  }
  return claim.claimed.map((claimed) => claimed.webhookId);
}

describe("fair claim", () => {
  it("leaves out owners already at their cap, and passes over an owner once this claim reaches it", () => {
    const claim = new FairClaim(
      [
        ["ann", 2],
        ["bob", 1],
      ],
      10,
      2,
    );
    expect(claim.cappedOwners()).toEqual(["ann"]);
    expect(
      claimAll(claim, [
        queue("b1", "bob"),
        queue("b2", "bob"),
        queue("c1", "cy"),
        queue("c2", "cy"),
        queue("c3", "cy"),
      ]),
    ).toEqual(["b1", "c1", "c2"]);
  });

  it("stops at its limit, and a webhook with nothing to lease takes no slot", () => {
    expect(
      claimAll(
        new FairClaim([], 2, 5),
        [queue("a", "ann"), queue("b", "bob"), queue("c", "cy"), queue("d", "dee")],
        ["a"],
      ),
    ).toEqual(["b", "c"]);
  });
});
