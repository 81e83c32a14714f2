import { randomUUID } from "node:crypto";
import { describe, it } from "vitest";
import { groupDecider, type GroupEvent } from "../../shared/groups/group.decider.ts";
import { groupIdSchema, invitationIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { entityAccessDecider, type EntityAccessEvent } from "../../shared/sharing/entity-access.decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const spec = deciderSpec(groupDecider);
const newUserId = () => userIdSchema.parse(randomUUID());
const owner = newUserId();
const admin = newUserId();
const ann = newUserId();
const groupId = groupIdSchema.parse(randomUUID());
const manager = { id: owner, manages: true };
const stranger = { id: newUserId(), manages: false };

const created: GroupEvent = {
  type: "GroupCreated",
  data: { groupId, ownerId: owner, name: "Editors", createdBy: owner },
};
const annAdded: GroupEvent = {
  type: "GroupMemberAdded",
  data: { groupId, ownerId: owner, memberId: ann, addedBy: owner, invitationId: null },
};
const deleted: GroupEvent = { type: "GroupDeleted", data: { groupId, ownerId: owner, deletedBy: owner } };

describe("groups", () => {
  it("the workspace owner or an admin creates a group; anyone else is refused", () => {
    spec
      .given([])
      .when({ type: "CreateGroup", groupId, ownerId: owner, name: "Editors", actor: manager })
      .then([created]);
    spec
      .given([])
      .when({ type: "CreateGroup", groupId, ownerId: owner, name: "Editors", actor: { id: admin, manages: true } })
      .then([{ type: "GroupCreated", data: { groupId, ownerId: owner, name: "Editors", createdBy: admin } }]);
    spec
      .given([])
      .when({ type: "CreateGroup", groupId, ownerId: owner, name: "Editors", actor: stranger })
      .thenRefuses("forbidden");
  });

  it("renaming to the same name records nothing; a member who does not manage may not rename", () => {
    spec.given([created]).when({ type: "RenameGroup", groupId, name: "Editors", actor: manager }).then([]);
    spec
      .given([created])
      .when({ type: "RenameGroup", groupId, name: "Writers", actor: manager })
      .then([{ type: "GroupRenamed", data: { groupId, ownerId: owner, name: "Writers" } }]);
    spec
      .given([created, annAdded])
      .when({ type: "RenameGroup", groupId, name: "Writers", actor: { id: ann, manages: false } })
      .thenRefuses("forbidden");
  });

  it("a manager adds a member once; adding them again records nothing", () => {
    spec.given([created]).when({ type: "AddGroupMember", groupId, memberId: ann, actor: manager }).then([annAdded]);
    spec.given([created, annAdded]).when({ type: "AddGroupMember", groupId, memberId: ann, actor: manager }).then([]);
  });

  it("a member leaves on their own; removing someone else needs a manager", () => {
    const left: GroupEvent = {
      type: "GroupMemberRemoved",
      data: { groupId, ownerId: owner, memberId: ann, removedBy: ann },
    };
    spec
      .given([created, annAdded])
      .when({ type: "RemoveGroupMember", groupId, memberId: ann, actor: { id: ann, manages: false } })
      .then([left]);
    spec
      .given([created, annAdded])
      .when({ type: "RemoveGroupMember", groupId, memberId: ann, actor: stranger })
      .thenRefuses("forbidden");
    spec
      .given([created])
      .when({ type: "RemoveGroupMember", groupId, memberId: ann, actor: manager })
      .thenRefuses("not_found");
  });

  it("a deleted group is missing to every command, and an invitation accepted after it adds no one", () => {
    spec
      .given([created, deleted])
      .when({ type: "RenameGroup", groupId, name: "X", actor: manager })
      .thenRefuses("not_found");
    spec
      .given([created, deleted])
      .when({ type: "AddGroupMember", groupId, memberId: ann, actor: manager })
      .thenRefuses("not_found");
    const invitationId = invitationIdSchema.parse(randomUUID());
    spec
      .given([created, deleted])
      .when({ type: "AddInvitedGroupMember", groupId, memberId: ann, invitedBy: owner, invitationId })
      .then([]);
    spec
      .given([created])
      .when({ type: "AddInvitedGroupMember", groupId, memberId: ann, invitedBy: owner, invitationId })
      .then([
        { type: "GroupMemberAdded", data: { groupId, ownerId: owner, memberId: ann, addedBy: owner, invitationId } },
      ]);
  });

  it("only the workspace owner gives a group a workspace role", () => {
    spec
      .given([created])
      .when({ type: "ChangeGroupRole", groupId, role: "editor", actor: manager })
      .then([{ type: "GroupRoleChanged", data: { groupId, ownerId: owner, role: "editor", changedBy: owner } }]);
    spec
      .given([created])
      .when({ type: "ChangeGroupRole", groupId, role: "editor", actor: { id: admin, manages: true } })
      .thenRefuses("forbidden");
  });

  it("an erased member leaves every group quietly", () => {
    spec
      .given([created, annAdded])
      .when({ type: "LeaveGroup", groupId, memberId: ann })
      .then([{ type: "GroupMemberRemoved", data: { groupId, ownerId: owner, memberId: ann, removedBy: ann } }]);
    spec.given([created]).when({ type: "LeaveGroup", groupId, memberId: ann }).then([]);
  });
});

describe("grants to groups", () => {
  const grants = deciderSpec(entityAccessDecider);
  const entity = { type: "folder" as const, id: randomUUID() };
  const granted = (permission: "view" | "edit" | "admin"): EntityAccessEvent => ({
    type: "GroupAccessGranted",
    data: { entityType: "folder", entityId: entity.id, groupId, permission, grantedBy: owner },
  });

  it("whoever may share grants a group a permission; the same again records nothing", () => {
    grants
      .given([])
      .when({
        type: "GrantGroupAccess",
        entity,
        groupId,
        permission: "edit",
        actor: { id: owner, permission: "owner" },
      })
      .then([granted("edit")]);
    grants
      .given([granted("edit")])
      .when({
        type: "GrantGroupAccess",
        entity,
        groupId,
        permission: "edit",
        actor: { id: owner, permission: "owner" },
      })
      .then([]);
    grants
      .given([])
      .when({ type: "GrantGroupAccess", entity, groupId, permission: "view", actor: { id: ann, permission: "edit" } })
      .thenRefuses("forbidden");
  });

  it("only the owner grants a group admin, or takes it away", () => {
    grants
      .given([])
      .when({
        type: "GrantGroupAccess",
        entity,
        groupId,
        permission: "admin",
        actor: { id: admin, permission: "admin" },
      })
      .thenRefuses("forbidden");
    grants
      .given([granted("admin")])
      .when({ type: "RevokeGroupAccess", entity, groupId, actor: { id: admin, permission: "admin" } })
      .thenRefuses("forbidden");
  });

  it("revoking a group's grant that does not exist is not found", () => {
    grants
      .given([])
      .when({ type: "RevokeGroupAccess", entity, groupId, actor: { id: owner, permission: "owner" } })
      .thenRefuses("not_found");
    grants
      .given([granted("view")])
      .when({ type: "RevokeGroupAccess", entity, groupId, actor: { id: owner, permission: "owner" } })
      .then([
        { type: "GroupAccessRevoked", data: { entityType: "folder", entityId: entity.id, groupId, revokedBy: owner } },
      ]);
  });
});
