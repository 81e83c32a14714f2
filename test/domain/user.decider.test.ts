import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { userIdSchema } from "../../shared/kernel/ids.ts";
import { reservationHolder, userDecider, type UserEvent } from "../../shared/users/user.decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const spec = deciderSpec(userDecider);
const userId = userIdSchema.parse(randomUUID());
const erasedAt = "2026-11-01T10:00:00.000Z";
const registered: UserEvent = {
  type: "UserRegistered",
  data: { userId, email: "ann@example.com", name: "Ann", image: null },
};
const erased: UserEvent = { type: "UserErased", data: { userId, erasedAt } };
const started: UserEvent = { type: "UserErasureStarted", data: { userId, startedAt: erasedAt } };
const register = (sessionIssuedAt: number | null) => ({
  type: "RegisterUser" as const,
  userId,
  email: "ann@example.com",
  name: "Ann",
  image: null,
  sessionIssuedAt,
});

describe("erasing an account", () => {
  it("records UserErased for a registered account, and nothing for one not registered (or erased already)", () => {
    spec.given([registered]).when({ type: "EraseUser", userId, now: erasedAt }).then([erased]);
    spec.given([registered, erased]).when({ type: "EraseUser", userId, now: erasedAt }).then([]);
    spec.given([]).when({ type: "EraseUser", userId, now: erasedAt }).then([]);
  });

  it("never registers an erased account's id again: a session from before is told to sign in again, a later one belongs to a new account", () => {
    spec
      .given([registered, erased])
      .when(register(Date.parse(erasedAt) + 1_000))
      .thenRefuses("conflict");
    spec
      .given([registered, erased])
      .when(register(Date.parse(erasedAt) - 1_000))
      .thenRefuses("unauthenticated");
    spec.given([registered, erased]).when(register(null)).thenRefuses("unauthenticated");
  });

  it("records the erasure's start first, once, and the erasure after it", () => {
    spec.given([registered]).when({ type: "StartErasure", userId, now: erasedAt }).then([started]);
    spec.given([registered, started]).when({ type: "StartErasure", userId, now: erasedAt }).then([]);
    spec.given([]).when({ type: "StartErasure", userId, now: erasedAt }).then([]);
    spec.given([registered, started]).when({ type: "EraseUser", userId, now: erasedAt }).then([erased]);
  });

  it("refuses a profile change, and a session's registration, once the erasure has started", () => {
    spec
      .given([registered, started])
      .when({ type: "ChangeProfile", userId, name: "Ann Later", image: null })
      .thenRefuses("unauthenticated");
    spec
      .given([registered, started])
      .when(register(Date.parse(erasedAt) + 1_000))
      .thenRefuses("unauthenticated");
  });

  it("takes a profile change of an erased account as of an unknown user", () => {
    spec
      .given([registered, erased])
      .when({ type: "ChangeProfile", userId, name: "Ann", image: null })
      .thenRefuses("not_found");
  });
});

describe("the address reservation", () => {
  const other = userIdSchema.parse(randomUUID());
  it("is held by the last account that reserved it, and free once that account released it", () => {
    expect(reservationHolder([])).toBeNull();
    expect(reservationHolder([{ type: "EmailReserved", data: { email: "a@example.com", userId } }])).toBe(userId);
    expect(
      reservationHolder([
        { type: "EmailReserved", data: { email: "a@example.com", userId } },
        { type: "EmailReleased", data: { userId } },
      ]),
    ).toBeNull();
    expect(
      reservationHolder([
        { type: "EmailReserved", data: { email: "a@example.com", userId } },
        { type: "EmailReleased", data: { userId } },
        { type: "EmailReserved", data: { email: "a@example.com", userId: other } },
      ]),
    ).toBe(other);
  });
});
