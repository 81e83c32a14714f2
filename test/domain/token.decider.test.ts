import { describe, it } from "vitest";
import { tokenIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { tokenDecider, type TokenEvent } from "../../shared/tokens/token.decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const { given } = deciderSpec(tokenDecider);

const tokenId = tokenIdSchema.parse("3d2a4c1e-5b6f-4a7b-8c9d-0e1f2a3b4c5d");
const userId = userIdSchema.parse("0b7c3a52-1d4e-4f6a-8b9c-2e3f4a5b6c7d");
const created: TokenEvent = {
  type: "TokenCreated",
  data: { tokenId, userId, name: "ci", scopes: ["pages:read"], expiresAt: null, secretHash: "a".repeat(64) },
};

describe("token decider", () => {
  it("records use at most once a minute", () => {
    const used: TokenEvent = { type: "TokenUsed", data: { tokenId, usedAt: "2026-01-01T10:00:00.000Z" } };
    given([created]).when({ type: "RecordTokenUse", tokenId, now: "2026-01-01T10:00:00.000Z" }).then([used]);
    given([created, used]).when({ type: "RecordTokenUse", tokenId, now: "2026-01-01T10:00:59.000Z" }).then([]);
    given([created, used])
      .when({ type: "RecordTokenUse", tokenId, now: "2026-01-01T10:01:00.000Z" })
      .then([{ type: "TokenUsed", data: { tokenId, usedAt: "2026-01-01T10:01:00.000Z" } }]);
  });

  it("only the owner revokes, once", () => {
    const other = userIdSchema.parse("9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d");
    given([created]).when({ type: "RevokeToken", tokenId, userId: other }).thenRefuses("not_found");
    given([created])
      .when({ type: "RevokeToken", tokenId, userId })
      .then([{ type: "TokenRevoked", data: { tokenId } }]);
    given([created, { type: "TokenRevoked", data: { tokenId } }])
      .when({ type: "RevokeToken", tokenId, userId })
      .then([]);
  });
});
