// How a notifier claims due deliveries fairly, the same for every store: it looks at a bounded window of
// webhooks, least recently served first, and holds at most `perOwner` of one owner's webhooks in flight
// (counting the leases every notifier holds when the claim starts), so one owner's backlog cannot take every
// sending slot. The stores only find the window and lease a webhook's due row (adapters/*/webhook-deliveries).
import type { DeliveryRecord } from "./webhook-deliveries.port.ts";

/** Webhooks a claim looks at beyond those of owners at their in-flight cap (which the store leaves out). */
export const CLAIM_WINDOW = 256;

export class FairClaim {
  readonly claimed: DeliveryRecord[] = [];
  private readonly held: Map<string, number>;

  /** `inFlight`: owner → how many of their webhooks have a row leased now. */
  constructor(
    inFlight: Iterable<readonly [string, number]>,
    private readonly limit: number,
    private readonly perOwner: number,
  ) {
    this.held = new Map(inFlight);
  }

  /** Owners already at their cap when the claim starts: the store leaves their webhooks out of the window. */
  cappedOwners(): string[] {
    return [...this.held].filter(([, n]) => n >= this.perOwner).map(([owner]) => owner);
  }

  /**
   * The window's webhooks to try, in the store's order, while the claim is not full: a webhook whose owner has
   * reached the cap (with what this claim leased) is passed over.
   */
  *turns<Candidate>(window: Iterable<Candidate>, ownerOf: (candidate: Candidate) => string): Generator<Candidate> {
    for (const candidate of window) {
      if (this.claimed.length >= this.limit) return;
      if ((this.held.get(ownerOf(candidate)) ?? 0) >= this.perOwner) continue;
      yield candidate;
    }
  }

  /** A row the store leased for an owner's webhook. */
  leased(ownerId: string, delivery: DeliveryRecord): void {
    this.held.set(ownerId, (this.held.get(ownerId) ?? 0) + 1);
    this.claimed.push(delivery);
  }
}
