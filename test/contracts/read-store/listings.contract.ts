// Part of the read-store contract (read-store.contract.ts): a caller's page list read from their listing
// (`listedFor`, docs/contributing/page-listing.md) holds exactly what the per-grant list holds, in the same order,
// as grants, group memberships, pages and folders change; and a rebuild from the same changes gives it again.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { visibilityFilter } from "../../../shared/access/effective-permission.ts";
import type { EntityType } from "../../../shared/access/access.view.ts";
import type { FolderRecord } from "../../../shared/folders/folders.view.ts";
import type { ListKey } from "../../../shared/read-store/list-query.ts";
import { at, folder, page, type ContractStores } from "./stores.ts";

export function listingCases<Tx>(s: ContractStores<Tx>): void {
  const { batch, w } = s;
  const grant = (userId: string, entityType: EntityType, entityId: string) => {
    const when = at();
    return {
      entityType,
      entityId,
      userId,
      permission: "view" as const,
      grantedBy: randomUUID(),
      createdAt: when.updatedAt,
      updatedAt: when.updatedAt,
    };
  };
  const groupGrant = (groupId: string, entityType: EntityType, entityId: string) => {
    const {
      entityType: type,
      entityId: id,
      permission,
      grantedBy,
      createdAt,
      updatedAt,
    } = grant("", entityType, entityId);
    return { entityType: type, entityId: id, permission, grantedBy, createdAt, updatedAt, groupId };
  };
  const membership = (groupId: string, ownerId: string, memberId: string) => {
    const when = at();
    return { groupId, ownerId, memberId, position: when.updatedPosition, createdAt: when.updatedAt };
  };

  /** Walks the caller's whole list in pages of two, through their listing; the per-grant list must agree. */
  const listed = async (userId: string, parentId: string | null = null): Promise<string[]> => {
    const visibleTo = visibilityFilter(await s.reader.access.contextFor(userId));
    const walk = async (listedFor: string | undefined) => {
      const seen: string[] = [];
      let before: ListKey | null = null;
      for (;;) {
        const rows = await s.reader.pages.list({ visibleTo, before, limit: 2, parentId, listedFor });
        const kept = rows.slice(0, 2);
        seen.push(...kept.map((row) => row.id));
        const last = kept.at(-1);
        if (rows.length <= 2 || !last) return seen;
        before = { position: last.updatedPosition, id: last.id };
      }
    };
    const throughListing = await walk(userId);
    expect(throughListing).toEqual(await walk(undefined));
    return throughListing;
  };

  it("lists a folder grant's whole subtree, newest changed first, and a page grant's page, to the grantee only", async () => {
    const [owner, ann, stranger] = [randomUUID(), randomUUID(), randomUUID()];
    const top = folder(owner);
    const inner = folder(owner, top);
    const [inTop, inInner, atRoot, granted] = [page(owner, top), page(owner, inner), page(owner), page(owner)];
    await batch(async (tx) => {
      await w().folders.put(tx, top);
      await w().folders.put(tx, inner);
      for (const record of [inTop, inInner, atRoot, granted]) await w().pages.put(tx, record, "");
    });
    await batch(async (tx) => {
      await w().access.putGrant(tx, grant(ann, "folder", top.id), at().updatedPosition);
      await w().access.putGrant(tx, grant(ann, "page", granted.id), at().updatedPosition);
    });
    expect(await listed(ann)).toEqual([granted.id, inInner.id, inTop.id]);
    expect(await listed(ann, inner.id)).toEqual([inInner.id]);
    expect(await listed(stranger)).toEqual([]);
    expect(await listed(owner)).toEqual([granted.id, atRoot.id, inInner.id, inTop.id]);
    // An edit moves the page to the top of every list it is in.
    await batch(async (tx) => w().pages.put(tx, { ...inTop, ...at(), revision: 1 }, "edited"));
    expect(await listed(ann)).toEqual([inTop.id, granted.id, inInner.id]);
    await batch(async (tx) => w().access.removeGrant(tx, "folder", top.id, ann, at().updatedPosition));
    expect(await listed(ann)).toEqual([granted.id]);
  });

  it("gives a group's grants to each member, and takes them back when the member leaves, the grant goes or the group goes", async () => {
    const [owner, ann, bob] = [randomUUID(), randomUUID(), randomUUID()];
    const groupId = randomUUID();
    const shared = folder(owner);
    const [first, second] = [page(owner, shared), page(owner, shared)];
    const alone = page(owner);
    await batch(async (tx) => {
      await w().folders.put(tx, shared);
      for (const record of [first, second, alone]) await w().pages.put(tx, record, "");
      await w().access.putGroupMember(tx, membership(groupId, owner, ann), at().updatedPosition);
      await w().access.putGroupGrant(tx, groupGrant(groupId, "folder", shared.id), at().updatedPosition);
    });
    expect(await listed(ann)).toEqual([second.id, first.id]);
    // Joining after the grant gives the member what the group holds.
    await batch(async (tx) => w().access.putGroupMember(tx, membership(groupId, owner, bob), at().updatedPosition));
    expect(await listed(bob)).toEqual([second.id, first.id]);
    await batch(async (tx) => w().access.removeGroupMember(tx, groupId, ann, at().updatedPosition));
    expect(await listed(ann)).toEqual([]);
    expect(await listed(bob)).toEqual([second.id, first.id]);
    await batch(async (tx) =>
      w().access.putGroupGrant(tx, groupGrant(groupId, "page", alone.id), at().updatedPosition),
    );
    expect(await listed(bob)).toEqual([alone.id, second.id, first.id]);
    await batch(async (tx) => w().access.removeGroupGrant(tx, "folder", shared.id, groupId, at().updatedPosition));
    expect(await listed(bob)).toEqual([alone.id]);
    await batch(async (tx) => w().access.removeGroup(tx, groupId, at().updatedPosition));
    expect(await listed(bob)).toEqual([]);
  });

  it("follows pages and folders as they move, go to the trash, come back and are purged", async () => {
    const [owner, ann] = [randomUUID(), randomUUID()];
    const shared = folder(owner);
    const elsewhere = folder(owner);
    const leaving = page(owner, shared);
    const staying = page(owner, shared);
    const below: FolderRecord = folder(owner, elsewhere);
    const deep = page(owner, below);
    await batch(async (tx) => {
      for (const record of [shared, elsewhere, below]) await w().folders.put(tx, record);
      for (const record of [leaving, staying, deep]) await w().pages.put(tx, record, "");
      await w().access.putGrant(tx, grant(ann, "folder", shared.id), at().updatedPosition);
    });
    expect(await listed(ann)).toEqual([staying.id, leaving.id]);
    // A page moved out of the shared folder leaves the grantee's list.
    await batch(async (tx) =>
      w().pages.put(tx, { ...leaving, parentId: null, ancestorIds: [], folderPath: "", ...at(), revision: 1 }),
    );
    expect(await listed(ann)).toEqual([staying.id]);
    // A folder moved into the shared folder brings its pages in, as changed at the move.
    const moved = { ...below, parentId: shared.id, ancestorIds: [shared.id], path: `${shared.path}/f` };
    const movedAt = at();
    await batch(async (tx) => {
      await w().folders.place(tx, { ...moved, ...movedAt }, movedAt);
      await w().pages.placeBelow(tx, { ...moved, ...movedAt }, movedAt);
    });
    expect(await listed(ann)).toEqual([deep.id, staying.id]);
    // Trashed: gone from every list; back from the trash: listed again, newest.
    await batch(async (tx) => w().pages.remove(tx, staying.id));
    expect(await listed(ann)).toEqual([deep.id]);
    const back = { ...staying, ...at() };
    await batch(async (tx) => w().pages.put(tx, back, ""));
    expect(await listed(ann)).toEqual([staying.id, deep.id]);
    await batch(async (tx) => w().pages.purge(tx, deep.id));
    expect(await listed(ann)).toEqual([staying.id]);
  });

  it("lists the same after a rebuild from the same changes", async () => {
    const [owner, ann, bob] = [randomUUID(), randomUUID(), randomUUID()];
    const groupId = randomUUID();
    const top = folder(owner);
    const inner = folder(owner, top);
    const [first, second, third, fourth] = [page(owner, top), page(owner, inner), page(owner), page(owner, inner)];
    const edit = { title: "Renamed", ...at(), revision: 1 };
    const changes = async (tx: Tx) => {
      await w().folders.put(tx, top);
      await w().folders.put(tx, inner);
      for (const record of [first, second, third, fourth]) await w().pages.put(tx, record, "");
      await w().access.putGrant(tx, grant(ann, "folder", inner.id), 1);
      await w().access.putGroupMember(tx, membership(groupId, owner, bob), 2);
      await w().access.putGroupGrant(tx, groupGrant(groupId, "folder", top.id), 3);
      await w().access.putGrant(tx, grant(bob, "page", third.id), 4);
      await w().pages.put(tx, { ...first, ...edit });
      await w().pages.remove(tx, fourth.id);
    };
    await batch(changes);
    const before = { ann: await listed(ann), bob: await listed(bob), owner: await listed(owner) };
    expect(before.ann).toEqual([second.id]);
    expect(before.bob).toEqual([first.id, third.id, second.id]);
    await s.projection.beginRebuild();
    await s.projection.applyBatch(1, changes);
    await s.projection.endRebuild();
    expect({ ann: await listed(ann), bob: await listed(bob), owner: await listed(owner) }).toEqual(before);
  });
}
