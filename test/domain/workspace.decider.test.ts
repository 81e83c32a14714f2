import { randomUUID } from "node:crypto";
import { describe, it } from "vitest";
import { invitationIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import type { WorkspaceRole } from "../../shared/kernel/permissions.ts";
import { workspaceDecider, type WorkspaceEvent } from "../../shared/sharing/workspace.decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const spec = deciderSpec(workspaceDecider);
const newUserId = () => userIdSchema.parse(randomUUID());
const owner = newUserId();
const ann = newUserId();
const membershipId = randomUUID();

const added = (role: WorkspaceRole, invitationId: string | null = null): WorkspaceEvent => ({
  type: "WorkspaceMemberAdded",
  data: {
    ownerId: owner,
    memberId: ann,
    membershipId,
    role,
    addedBy: owner,
    invitationId: invitationId === null ? null : invitationIdSchema.parse(invitationId),
  },
});
const roleChanged = (role: WorkspaceRole): WorkspaceEvent => ({
  type: "WorkspaceMemberRoleChanged",
  data: { ownerId: owner, memberId: ann, role },
});
const removed: WorkspaceEvent = {
  type: "WorkspaceMemberRemoved",
  data: { ownerId: owner, memberId: ann, removedBy: owner },
};
const add = (role: WorkspaceRole, actorId = owner) => ({
  type: "AddMember" as const,
  ownerId: owner,
  memberId: ann,
  membershipId,
  role,
  actorId,
});

describe("workspace members", () => {
  it("the owner adds a member with a role", () => {
    spec
      .given([])
      .when(add("viewer"))
      .then([added("viewer")]);
  });

  it("adding a member again changes their role, or records nothing when it is the same", () => {
    spec
      .given([added("viewer")])
      .when(add("editor"))
      .then([roleChanged("editor")]);
    spec
      .given([added("viewer"), roleChanged("editor")])
      .when(add("editor"))
      .then([]);
  });

  it("only the owner adds members", () => {
    spec.given([]).when(add("viewer", newUserId())).thenRefuses("forbidden");
  });

  it("the owner cannot add themselves", () => {
    spec
      .given([])
      .when({ ...add("viewer"), memberId: owner })
      .thenRefuses("validation_failed");
  });

  it("the owner removes a member; removing a non-member is not found", () => {
    spec
      .given([added("commenter")])
      .when({ type: "RemoveMember", ownerId: owner, memberId: ann, actorId: owner })
      .then([removed]);
    spec
      .given([added("commenter"), removed])
      .when({ type: "RemoveMember", ownerId: owner, memberId: ann, actorId: owner })
      .thenRefuses("not_found");
  });

  it("a member leaves on their own, once; leaving a workspace one is not in records nothing", () => {
    const left: WorkspaceEvent = {
      type: "WorkspaceMemberRemoved",
      data: { ownerId: owner, memberId: ann, removedBy: ann },
    };
    spec
      .given([added("editor")])
      .when({ type: "LeaveWorkspace", ownerId: owner, memberId: ann })
      .then([left]);
    spec
      .given([added("editor"), left])
      .when({ type: "LeaveWorkspace", ownerId: owner, memberId: ann })
      .then([]);
  });

  it("a member cannot remove another member", () => {
    spec
      .given([added("admin")])
      .when({ type: "RemoveMember", ownerId: owner, memberId: ann, actorId: ann })
      .thenRefuses("forbidden");
  });
});

describe("joining a workspace by invitation", () => {
  const invitationId = invitationIdSchema.parse(randomUUID());
  const accept = (role: WorkspaceRole) => ({
    type: "AddInvitedMember" as const,
    ownerId: owner,
    memberId: ann,
    membershipId,
    role,
    invitedBy: owner,
    invitationId,
  });

  it("adds the member with the invited role", () => {
    spec
      .given([])
      .when(accept("commenter"))
      .then([added("commenter", invitationId)]);
  });

  it("raises a lower role but never lowers a higher one", () => {
    spec
      .given([added("viewer")])
      .when(accept("editor"))
      .then([roleChanged("editor")]);
    spec
      .given([added("admin")])
      .when(accept("viewer"))
      .then([]);
  });
});
