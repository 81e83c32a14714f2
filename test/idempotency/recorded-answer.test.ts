// What an Idempotency-Key keeps for a replay is recorded as one event: an answer too large for it is kept as
// the 202 of a recorded write (its id, how to read it), so the key still completes and the work never reruns.
import { expect, it } from "vitest";
import { recordable, RECORDED_ANSWER_MAX_BYTES } from "../../services/command-api/idempotent-write.ts";

it("keeps an answer within the budget as it is", () => {
  const answer = { status: 201, body: { id: "p1", title: "Plan" }, consistencyToken: "7", location: "/api/v1/pages/p1" };
  expect(recordable(answer)).toEqual(answer);
});

it("keeps an answer over the budget as a 202 naming what was written, with its Location and consistency token", () => {
  const answer = { status: 201, body: { id: "p1", text: "x".repeat(RECORDED_ANSWER_MAX_BYTES) }, consistencyToken: "7", location: "/api/v1/pages/p1" };
  const kept = recordable(answer);
  expect(kept).toMatchObject({ status: 202, consistencyToken: "7", location: "/api/v1/pages/p1", body: { id: "p1", status: "recorded" } });
  expect(JSON.stringify(kept.body).length).toBeLessThan(1_000);
});
