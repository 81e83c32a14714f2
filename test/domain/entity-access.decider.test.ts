import { randomUUID } from "node:crypto";
import { describe, it } from "vitest";
import { invitationIdSchema, userIdSchema, type InvitationId } from "../../shared/kernel/ids.ts";
import type { GrantablePermission, Permission } from "../../shared/kernel/permissions.ts";
import { entityAccessDecider, type EntityAccessEvent } from "../../shared/sharing/entity-access.decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const spec = deciderSpec(entityAccessDecider);
const newUserId = () => userIdSchema.parse(randomUUID());
const owner = newUserId();
const admin = newUserId();
const ann = newUserId();
const page = { type: "page" as const, id: randomUUID() };
const ownedPage = { ...page, ownerId: owner };

const granted = (
  userId: string,
  permission: GrantablePermission,
  grantedBy = owner,
  invitationId: InvitationId | null = null,
): EntityAccessEvent => ({
  type: "AccessGranted",
  data: {
    entityType: "page",
    entityId: page.id,
    userId: userIdSchema.parse(userId),
    permission,
    grantedBy,
    invitationId,
  },
});
const grant = (
  permission: GrantablePermission,
  by: { id: typeof owner; permission: Permission } = { id: owner, permission: "owner" },
) => ({
  type: "GrantAccess" as const,
  entity: ownedPage,
  userId: ann,
  permission,
  actor: by,
});
const revoke = (userId: typeof ann, by: { id: typeof owner; permission: Permission }) => ({
  type: "RevokeAccess" as const,
  entity: page,
  userId,
  actor: by,
});

describe("sharing a page or folder", () => {
  it("the owner grants a permission", () => {
    spec
      .given([])
      .when(grant("edit"))
      .then([granted(ann, "edit")]);
  });

  it("re-sharing changes the permission", () => {
    spec
      .given([granted(ann, "view")])
      .when(grant("comment"))
      .then([granted(ann, "comment")]);
  });

  it("re-sharing the same permission records nothing", () => {
    spec
      .given([granted(ann, "edit")])
      .when(grant("edit"))
      .then([]);
  });

  it("an admin shares up to edit", () => {
    spec
      .given([granted(admin, "admin")])
      .when(grant("edit", { id: admin, permission: "admin" }))
      .then([granted(ann, "edit", admin)]);
  });

  it("only the owner grants admin", () => {
    spec
      .given([])
      .when(grant("admin", { id: admin, permission: "admin" }))
      .thenRefuses("forbidden");
    spec
      .given([])
      .when(grant("admin"))
      .then([granted(ann, "admin")]);
  });

  it("an admin cannot demote another admin", () => {
    spec
      .given([granted(ann, "admin")])
      .when(grant("view", { id: admin, permission: "admin" }))
      .thenRefuses("forbidden");
  });

  it("an editor, commenter or viewer cannot share", () => {
    for (const permission of ["edit", "comment", "view"] as const) {
      spec
        .given([])
        .when(grant("view", { id: admin, permission }))
        .thenRefuses("forbidden");
    }
  });

  it("nobody shares with the owner or with themselves", () => {
    spec
      .given([])
      .when({ ...grant("view"), userId: owner })
      .thenRefuses("validation_failed");
    spec
      .given([])
      .when({ ...grant("view", { id: admin, permission: "admin" }), userId: admin })
      .thenRefuses("validation_failed");
  });
});

describe("accepting an invitation to a page", () => {
  const invitationId = invitationIdSchema.parse(randomUUID());
  const accept = (permission: GrantablePermission) => ({
    type: "GrantInvitedAccess" as const,
    entity: page,
    userId: ann,
    permission,
    invitedBy: admin,
    invitationId,
  });

  it("grants the invited permission, naming the inviter and the invitation", () => {
    spec
      .given([])
      .when(accept("comment"))
      .then([granted(ann, "comment", admin, invitationId)]);
  });

  it("never lowers a permission already held", () => {
    spec
      .given([granted(ann, "edit")])
      .when(accept("view"))
      .then([]);
  });
});

describe("revoking access", () => {
  const revoked = (userId: typeof ann, by: typeof owner): EntityAccessEvent => ({
    type: "AccessRevoked",
    data: { entityType: "page", entityId: page.id, userId, revokedBy: by },
  });

  it("the owner revokes a grant", () => {
    spec
      .given([granted(ann, "edit")])
      .when(revoke(ann, { id: owner, permission: "owner" }))
      .then([revoked(ann, owner)]);
  });

  it("a revoked grant is gone", () => {
    spec
      .given([granted(ann, "edit"), revoked(ann, owner)])
      .when(revoke(ann, { id: owner, permission: "owner" }))
      .thenRefuses("not_found");
  });

  it("an admin revokes an editor but not another admin", () => {
    spec
      .given([granted(ann, "edit")])
      .when(revoke(ann, { id: admin, permission: "admin" }))
      .then([revoked(ann, admin)]);
    spec
      .given([granted(ann, "admin")])
      .when(revoke(ann, { id: admin, permission: "admin" }))
      .thenRefuses("forbidden");
  });

  it("anyone gives up their own grant, and no one else's without admin", () => {
    spec
      .given([granted(ann, "view")])
      .when(revoke(ann, { id: ann, permission: "view" }))
      .then([revoked(ann, ann)]);
    spec
      .given([granted(ann, "view")])
      .when(revoke(ann, { id: admin, permission: "edit" }))
      .thenRefuses("forbidden");
  });
});
