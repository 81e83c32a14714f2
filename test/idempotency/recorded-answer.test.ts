// What an Idempotency-Key keeps for a replay is recorded as one event: an answer too large for it is kept
// without its body when the route can present its record again, so the key still completes, the work never
// reruns, and a replay answers the record (test/http/api/api-conformance.test.ts replays one over HTTP).
import { expect, it } from "vitest";
import { recordable, RECORDED_ANSWER_MAX_BYTES } from "../../shared/idempotency/recorded-answer.ts";

const large = {
  status: 201,
  body: { id: "p1", text: "x".repeat(RECORDED_ANSWER_MAX_BYTES) },
  consistencyToken: "7",
  location: "/api/v1/pages/p1",
};

it("keeps an answer within the budget as it is, without the headers of the one request", () => {
  const answer = {
    status: 201,
    body: { id: "p1", title: "Plan" },
    consistencyToken: "7",
    location: "/api/v1/pages/p1",
    headers: { "x-read-side": "behind" },
  };
  expect(recordable(answer, true)).toEqual({
    status: 201,
    body: { id: "p1", title: "Plan" },
    consistencyToken: "7",
    location: "/api/v1/pages/p1",
  });
});

it("keeps an answer over the budget without its body, to be presented again, when the route can present it again", () => {
  expect(recordable(large, true)).toEqual({
    status: 201,
    body: null,
    consistencyToken: "7",
    location: "/api/v1/pages/p1",
    presentAgain: true,
  });
});

it("keeps an answer over the budget whole when the route cannot present it again", () => {
  expect(recordable(large, false)).toEqual(large);
});
