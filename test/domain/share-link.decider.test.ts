import { describe, it } from "vitest";
import { shareLinkIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { shareLinkDecider, type ShareLinkEvent } from "../../shared/share-links/share-link.decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const { given } = deciderSpec(shareLinkDecider);

const linkId = shareLinkIdSchema.parse("5f0c2b1a-3d4e-4f5a-8b6c-7d8e9f0a1b2c");
const createdBy = userIdSchema.parse("0b7c3a52-1d4e-4f6a-8b9c-2e3f4a5b6c7d");
const entityId = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";
const hash = "scrypt$16384$8$1$c2FsdA$a2V5";
const created: ShareLinkEvent = {
  type: "ShareLinkCreated",
  data: {
    linkId,
    entityType: "page",
    entityId,
    createdBy,
    secretHash: "b".repeat(64),
    expiresAt: null,
    passwordHash: null,
    allowIndexing: false,
  },
};
const revoked: ShareLinkEvent = { type: "ShareLinkRevoked", data: { linkId, entityType: "page", entityId } };

describe("share-link decider", () => {
  it("creates a link once", () => {
    const { type: _type, ...data } = created;
    given([])
      .when({ type: "CreateShareLink", ...data.data })
      .then([created]);
    given([created])
      .when({ type: "CreateShareLink", ...data.data })
      .thenRefuses("conflict");
  });

  it("changes only what the command names, and records nothing when nothing changes", () => {
    given([created])
      .when({ type: "ChangeShareLink", linkId, password: { kind: "set", hash } })
      .then([
        {
          type: "ShareLinkChanged",
          data: { linkId, entityType: "page", entityId, expiresAt: null, passwordHash: hash, allowIndexing: false },
        },
      ]);
    given([created])
      .when({ type: "ChangeShareLink", linkId, password: { kind: "keep" }, allowIndexing: false })
      .then([]);
    given([created])
      .when({ type: "ChangeShareLink", linkId, password: { kind: "remove" } })
      .then([]);
  });

  it("a revoked link stays revoked: not changed, revoked again without a second event, its views no longer counted", () => {
    given([created]).when({ type: "RevokeShareLink", linkId }).then([revoked]);
    given([created, revoked]).when({ type: "RevokeShareLink", linkId }).then([]);
    given([created, revoked])
      .when({ type: "ChangeShareLink", linkId, password: { kind: "keep" }, allowIndexing: true })
      .thenRefuses("not_found");
    given([created, revoked])
      .when({ type: "RecordShareLinkViews", linkId, views: 3, lastViewedAt: "2026-01-01T10:00:00.000Z" })
      .then([]);
  });

  it("records reported views as one event per report", () => {
    given([created])
      .when({ type: "RecordShareLinkViews", linkId, views: 3, lastViewedAt: "2026-01-01T10:00:00.000Z" })
      .then([{ type: "ShareLinkViewed", data: { linkId, views: 3, lastViewedAt: "2026-01-01T10:00:00.000Z" } }]);
    given([])
      .when({ type: "RecordShareLinkViews", linkId, views: 1, lastViewedAt: "2026-01-01T10:00:00.000Z" })
      .then([]);
  });
});
