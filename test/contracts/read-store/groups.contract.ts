// Part of the read-store contract (read-store.contract.ts): groups and what they give. A group's grants and
// workspace role count in each member's access context as their own grants do (the highest wins), and a member
// removed, a grant revoked or a group deleted changes the context in the same batch, past any cache.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import type { GroupRecord } from "../../../shared/groups/groups.view.ts";
import { at, type ContractStores } from "./stores.ts";

function group(ownerId: string, name = "Editors"): GroupRecord {
  const when = at();
  return {
    id: randomUUID(),
    ownerId,
    name,
    memberCount: 0,
    createdAt: when.updatedAt,
    updatedAt: when.updatedAt,
    position: when.updatedPosition,
  };
}

export function groupCases<Tx>(s: ContractStores<Tx>): void {
  const { batch, w } = s;
  const member = (g: GroupRecord, memberId: string) => {
    const when = at();
    return { groupId: g.id, ownerId: g.ownerId, memberId, position: when.updatedPosition, createdAt: when.updatedAt };
  };

  it("gives a group's grants and role to its members, the highest of theirs and their own winning", async () => {
    const [owner, ann, bob] = [randomUUID(), randomUUID(), randomUUID()];
    const editors = group(owner);
    const [pageId, folderId] = [randomUUID(), randomUUID()];
    await batch(async (tx) => {
      await w().groups.put(tx, editors);
      await w().access.putGroupMember(tx, member(editors, ann), at().updatedPosition);
      await w().groups.countMembers(tx, editors.id, 1, at().updatedAt);
      await w().access.putGrant(
        tx,
        {
          entityType: "page",
          entityId: pageId,
          userId: ann,
          permission: "comment",
          grantedBy: owner,
          createdAt: "t",
          updatedAt: "t",
        },
        at().updatedPosition,
      );
      await w().access.putGroupGrant(
        tx,
        {
          entityType: "page",
          entityId: pageId,
          groupId: editors.id,
          permission: "edit",
          grantedBy: owner,
          createdAt: "t",
          updatedAt: "t",
        },
        at().updatedPosition,
      );
      await w().access.putGroupGrant(
        tx,
        {
          entityType: "folder",
          entityId: folderId,
          groupId: editors.id,
          permission: "view",
          grantedBy: owner,
          createdAt: "t",
          updatedAt: "t",
        },
        at().updatedPosition,
      );
      await w().access.setGroupRole(tx, editors.id, owner, "commenter", at().updatedPosition);
    });
    const context = await s.reader.access.contextFor(ann);
    expect(context.pageGrants.get(pageId)).toBe("edit");
    expect(context.folderGrants.get(folderId)).toBe("view");
    expect(context.workspaceRoles.get(owner)).toBe("commenter");
    expect([...context.groupIds]).toEqual([editors.id]);
    const outsider = await s.reader.access.contextFor(bob);
    expect(
      outsider.pageGrants.size + outsider.folderGrants.size + outsider.workspaceRoles.size + outsider.groupIds.size,
    ).toBe(0);
    expect(await s.reader.groups.get(editors.id)).toMatchObject({ id: editors.id, name: "Editors", memberCount: 1 });
    expect(
      (await s.reader.access.groupGrantsOn("page", pageId)).map((grant) => [grant.groupId, grant.permission]),
    ).toEqual([[editors.id, "edit"]]);
  });

  it("takes a group's access away in the batch that removes the member, revokes the grant or deletes the group", async () => {
    const [owner, ann, bob] = [randomUUID(), randomUUID(), randomUUID()];
    const editors = group(owner);
    const pageId = randomUUID();
    await batch(async (tx) => {
      await w().groups.put(tx, editors);
      await w().access.putGroupMember(tx, member(editors, ann), at().updatedPosition);
      await w().access.putGroupMember(tx, member(editors, bob), at().updatedPosition);
      await w().access.putGroupGrant(
        tx,
        {
          entityType: "page",
          entityId: pageId,
          groupId: editors.id,
          permission: "view",
          grantedBy: owner,
          createdAt: "t",
          updatedAt: "t",
        },
        at().updatedPosition,
      );
    });
    // Contexts read (and cached) before each change.
    expect((await s.reader.access.contextFor(ann)).pageGrants.get(pageId)).toBe("view");
    expect((await s.reader.access.contextFor(bob)).pageGrants.get(pageId)).toBe("view");
    await batch(async (tx) => w().access.removeGroupMember(tx, editors.id, ann, at().updatedPosition));
    expect((await s.reader.access.contextFor(ann)).pageGrants.has(pageId)).toBe(false);
    expect((await s.reader.access.contextFor(bob)).pageGrants.get(pageId)).toBe("view");
    await batch(async (tx) => w().access.removeGroupGrant(tx, "page", pageId, editors.id, at().updatedPosition));
    expect((await s.reader.access.contextFor(bob)).pageGrants.has(pageId)).toBe(false);
    await batch(async (tx) =>
      w().access.putGroupGrant(
        tx,
        {
          entityType: "page",
          entityId: pageId,
          groupId: editors.id,
          permission: "edit",
          grantedBy: owner,
          createdAt: "t",
          updatedAt: "t",
        },
        at().updatedPosition,
      ),
    );
    expect((await s.reader.access.contextFor(bob)).pageGrants.get(pageId)).toBe("edit");
    await batch(async (tx) => {
      await w().access.removeGroup(tx, editors.id, at().updatedPosition);
      await w().groups.remove(tx, editors.id);
    });
    const after = await s.reader.access.contextFor(bob);
    expect(after.pageGrants.has(pageId)).toBe(false);
    expect(after.groupIds.size).toBe(0);
    expect(await s.reader.groups.get(editors.id)).toBeNull();
    expect(await s.reader.access.groupMembers(editors.id, null, 10)).toEqual([]);
  });

  it("takes a purged entity's grants from every group holding one", async () => {
    const [owner, ann] = [randomUUID(), randomUUID()];
    const editors = group(owner);
    const folderId = randomUUID();
    await batch(async (tx) => {
      await w().groups.put(tx, editors);
      await w().access.putGroupMember(tx, member(editors, ann), at().updatedPosition);
      await w().access.putGroupGrant(
        tx,
        {
          entityType: "folder",
          entityId: folderId,
          groupId: editors.id,
          permission: "view",
          grantedBy: owner,
          createdAt: "t",
          updatedAt: "t",
        },
        at().updatedPosition,
      );
    });
    expect((await s.reader.access.contextFor(ann)).folderGrants.get(folderId)).toBe("view");
    await batch(async (tx) => w().access.removeEntity(tx, "folder", folderId, at().updatedPosition));
    expect((await s.reader.access.contextFor(ann)).folderGrants.has(folderId)).toBe(false);
    expect(await s.reader.access.groupGrantsOn("folder", folderId)).toEqual([]);
  });

  it("lists a group's members in the order they joined, from a cursor, and answers membership", async () => {
    const owner = randomUUID();
    const editors = group(owner);
    const members = Array.from({ length: 5 }, () => member(editors, randomUUID()));
    await batch(async (tx) => {
      await w().groups.put(tx, editors);
      for (const entry of members) await w().access.putGroupMember(tx, entry, at().updatedPosition);
    });
    const first = await s.reader.access.groupMembers(editors.id, null, 3);
    expect(first.map((entry) => entry.memberId)).toEqual(members.slice(0, 3).map((entry) => entry.memberId));
    const last = first.at(-1);
    if (!last) throw new Error("no first page");
    const rest = await s.reader.access.groupMembers(editors.id, { position: last.position, id: last.memberId }, 3);
    expect(rest.map((entry) => entry.memberId)).toEqual(members.slice(3).map((entry) => entry.memberId));
    expect(await s.reader.access.isGroupMember(editors.id, members[0]?.memberId ?? "")).toBe(true);
    expect(await s.reader.access.isGroupMember(editors.id, randomUUID())).toBe(false);
  });

  it("lists the groups of the workspaces and the groups asked for, newest first, from a cursor, and nothing else", async () => {
    const [owner, other, third] = [randomUUID(), randomUUID(), randomUUID()];
    const owned = [group(owner, "a"), group(owner, "b")];
    const joined = group(other, "c");
    const unrelated = group(third, "d");
    await batch(async (tx) => {
      for (const entry of [...owned, joined, unrelated]) await w().groups.put(tx, entry);
      await w().groups.rename(tx, joined.id, "renamed", at().updatedAt);
    });
    const all = await s.reader.groups.list({ ownerIds: [owner], groupIds: [joined.id], before: null, limit: 10 });
    expect(all.map((entry) => entry.id)).toEqual([joined.id, owned[1]?.id, owned[0]?.id]);
    expect(all[0]?.name).toBe("renamed");
    const newest = all[0];
    if (!newest) throw new Error("no groups");
    const rest = await s.reader.groups.list({
      ownerIds: [owner],
      groupIds: [joined.id],
      before: { position: newest.position, id: newest.id },
      limit: 10,
    });
    expect(rest.map((entry) => entry.id)).toEqual([owned[1]?.id, owned[0]?.id]);
    expect(await s.reader.groups.list({ ownerIds: [], groupIds: [], before: null, limit: 10 })).toEqual([]);
  });
}
