import { describe, it } from "vitest";
import { userIdSchema } from "../../shared/kernel/ids.ts";
import {
  DIGEST_LEASE_MS,
  notificationMailDecider,
  type NotificationMailEvent,
} from "../../shared/notifications/notification-mail.decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const spec = deciderSpec(notificationMailDecider);
const userId = userIdSchema.parse("00000000-0000-4000-8000-0000000000a1");
const day = "2026-03-02";
const at = (ms: number) => new Date(Date.UTC(2026, 2, 2, 7) + ms).toISOString();
const started = (ms: number): NotificationMailEvent => ({
  type: "NotificationDigestStarted",
  data: { userId, day, startedAt: at(ms) },
});
const start = (ms: number) => ({ type: "StartDigest" as const, userId, day, now: at(ms) });

describe("a day's digest", () => {
  it("is started by the first notifier to ask", () => {
    spec
      .given([])
      .when(start(0))
      .then([started(0)]);
  });

  it("is not started again while another notifier's start holds its lease", () => {
    spec
      .given([started(0)])
      .when(start(DIGEST_LEASE_MS - 1))
      .then([]);
  });

  it("may be started again once a start was never recorded mailed within the lease", () => {
    spec
      .given([started(0)])
      .when(start(DIGEST_LEASE_MS))
      .then([started(DIGEST_LEASE_MS)]);
  });

  it("is never started again once mailed", () => {
    const mailed: NotificationMailEvent = {
      type: "NotificationDigestMailed",
      data: { userId, day, notificationIds: [], mailedAt: at(1) },
    };
    spec
      .given([started(0), mailed])
      .when(start(DIGEST_LEASE_MS * 10))
      .then([]);
  });
});
