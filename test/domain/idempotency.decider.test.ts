import { describe, expect, it } from "vitest";
import {
  CLAIM_EXPIRY_MS,
  idempotencyDecider,
  REPLAY_WINDOW_MS,
  type IdempotencyEvent,
} from "../../shared/idempotency/idempotency.decider.ts";
import { fold } from "../../shared/kernel/decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const { given } = deciderSpec(idempotencyDecider);

const keyHash = "a".repeat(64);
const fingerprint = "POST /pages {title:Plan}";
const otherFingerprint = "POST /pages {title:Other}";
const start = "2026-03-01T09:00:00.000Z";
const later = (ms: number): string => new Date(Date.parse(start) + ms).toISOString();
const response = { status: 201, body: { id: "p1", title: "Plan" }, consistencyToken: "42" };

const claimed = (at = start, print = fingerprint): IdempotencyEvent => ({
  type: "IdempotencyKeyClaimed",
  data: { keyHash, fingerprint: print, claimedAt: at },
});
const completed = (at = start): IdempotencyEvent => ({
  type: "IdempotentRequestCompleted",
  data: { keyHash, fingerprint, ...response, completedAt: at },
});
const released = (at = start): IdempotencyEvent => ({
  type: "IdempotencyKeyReleased",
  data: { keyHash, releasedAt: at },
});
const claim = (now: string, print = fingerprint) => ({ type: "ClaimKey" as const, keyHash, fingerprint: print, now });

describe("idempotency key", () => {
  it("is claimed by its first request", () => {
    given([]).when(claim(start)).then([claimed()]);
  });

  it("replays the recorded response to the same request within 24 hours, recording nothing", () => {
    given([claimed(), completed()])
      .when(claim(later(REPLAY_WINDOW_MS - 1)))
      .then([]);
    expect(fold(idempotencyDecider, [claimed(), completed()])).toEqual({
      status: "completed",
      fingerprint,
      completedAt: start,
      response,
    });
  });

  it("refuses the same request while the first is still in progress", () => {
    given([claimed()])
      .when(claim(later(CLAIM_EXPIRY_MS - 1)))
      .thenRefuses("conflict");
  });

  it("refuses another request while the first is in progress", () => {
    given([claimed()])
      .when(claim(later(1_000), otherFingerprint))
      .thenRefuses("idempotency_key_mismatch");
  });

  it("refuses another request once the first completed, within 24 hours", () => {
    given([claimed(), completed()])
      .when(claim(later(REPLAY_WINDOW_MS - 1), otherFingerprint))
      .thenRefuses("idempotency_key_mismatch");
  });

  it("lets a new request take over a claim that did not complete within 5 minutes", () => {
    given([claimed()])
      .when(claim(later(CLAIM_EXPIRY_MS)))
      .then([claimed(later(CLAIM_EXPIRY_MS))]);
    given([claimed()])
      .when(claim(later(CLAIM_EXPIRY_MS), otherFingerprint))
      .then([claimed(later(CLAIM_EXPIRY_MS), otherFingerprint)]);
  });

  it("is claimed afresh once its completion is 24 hours old", () => {
    given([claimed(), completed()])
      .when(claim(later(REPLAY_WINDOW_MS)))
      .then([claimed(later(REPLAY_WINDOW_MS))]);
    given([claimed(), completed()])
      .when(claim(later(REPLAY_WINDOW_MS), otherFingerprint))
      .then([claimed(later(REPLAY_WINDOW_MS), otherFingerprint)]);
  });

  it("is claimed again after the request that held it released it", () => {
    given([claimed(), released()])
      .when(claim(later(1_000)))
      .then([claimed(later(1_000))]);
  });

  it("records the response of the request that holds the claim", () => {
    given([claimed()])
      .when({ type: "CompleteRequest", keyHash, fingerprint, ...response, now: start })
      .then([completed()]);
  });

  it("records no response for a request that does not hold the claim", () => {
    given([])
      .when({ type: "CompleteRequest", keyHash, fingerprint, ...response, now: start })
      .thenRefuses("conflict");
    given([claimed(start, otherFingerprint)])
      .when({ type: "CompleteRequest", keyHash, fingerprint, ...response, now: start })
      .thenRefuses("conflict");
    given([claimed(), completed()])
      .when({ type: "CompleteRequest", keyHash, fingerprint, ...response, now: start })
      .thenRefuses("conflict");
  });

  it("records and replays the Location of a response that has one; one recorded before Location was kept replays without", () => {
    const located = { ...response, location: "/api/v1/pages/p1" };
    const completedWithLocation: IdempotencyEvent = {
      type: "IdempotentRequestCompleted",
      data: { keyHash, fingerprint, ...located, completedAt: start },
    };
    given([claimed()])
      .when({ type: "CompleteRequest", keyHash, fingerprint, ...located, now: start })
      .then([completedWithLocation]);
    expect(fold(idempotencyDecider, [claimed(), completedWithLocation])).toEqual({
      status: "completed",
      fingerprint,
      completedAt: start,
      response: located,
    });
    expect(fold(idempotencyDecider, [claimed(), completed()])).toEqual({
      status: "completed",
      fingerprint,
      completedAt: start,
      response,
    });
  });

  it("is released when the work of the request that holds it failed", () => {
    given([claimed()]).when({ type: "ReleaseKey", keyHash, fingerprint, now: start }).then([released()]);
  });

  it("releases nothing it does not hold", () => {
    given([]).when({ type: "ReleaseKey", keyHash, fingerprint, now: start }).then([]);
    given([claimed(start, otherFingerprint)])
      .when({ type: "ReleaseKey", keyHash, fingerprint, now: start })
      .then([]);
    given([claimed(), completed()]).when({ type: "ReleaseKey", keyHash, fingerprint, now: start }).then([]);
  });
});
