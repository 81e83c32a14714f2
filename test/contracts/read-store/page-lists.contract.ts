// Part of the read-store contract (read-store.contract.ts). Pages and folders: what each caller sees, in what
// order, as pages and folders move and go.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import type { FolderRecord } from "../../../shared/folders/folders.view.ts";
import type { ListKey, VisibleTo } from "../../../shared/read-store/list-query.ts";
import { at, everyone, folder, page, position, type ContractStores } from "./stores.ts";

export function pageListCases<Tx>(s: ContractStores<Tx>): void {
  const { batch, w } = s;
  it("lists exactly the pages visible through owners, page grants and ancestor folder grants, newest first, in pages", async () => {
    const me = randomUUID();
    const other = randomUUID();
    const top = folder(other);
    const inner = folder(other, top);
    const expected: string[] = [];
    await batch(async (tx) => {
      await w().folders.put(tx, top);
      await w().folders.put(tx, inner);
      for (let i = 0; i < 6; i += 1) {
        const mine = page(me);
        const shared = page(other, inner);
        await w().pages.put(tx, mine, "");
        await w().pages.put(tx, shared, "");
        await w().pages.put(tx, page(other), "");
        expected.push(mine.id, shared.id);
      }
    });
    const granted = page(other);
    await batch(async (tx) => w().pages.put(tx, granted, "body"));
    expected.push(granted.id);
    const visibleTo = { ownerIds: [me], pageIds: [granted.id], folderIds: [top.id] };
    const seen: string[] = [];
    let before: ListKey | null = null;
    for (;;) {
      const rows = await s.reader.pages.list({ visibleTo, before, limit: 4, parentId: null });
      const kept = rows.slice(0, 4);
      seen.push(...kept.map((row) => row.id));
      const last = kept[kept.length - 1];
      if (rows.length <= 4 || !last) break;
      before = { position: last.updatedPosition, id: last.id };
    }
    expect(seen).toEqual([...expected].reverse());
    const inFolder = await s.reader.pages.list({ visibleTo, before: null, limit: 50, parentId: inner.id });
    expect(inFolder).toHaveLength(6);
  });

  it("keeps the last value of every field when one batch changes a page many times", async () => {
    const record = page(randomUUID(), null, "First");
    await batch(async (tx) => {
      await w().pages.put(tx, record, "v1");
      const second = { ...record, title: "Second", ...at(), revision: 1 };
      await w().pages.put(tx, second);
      const starred = { ...second, icon: "⭐", ...at(), revision: 2 };
      await w().pages.put(tx, starred);
      const edited = { ...starred, ...at(), revision: 3 };
      await w().pages.put(tx, edited, "v2");
      await w().pages.put(tx, { ...edited, title: "Third", ...at(), revision: 4 });
    });
    const content = await s.reader.pages.getContent(record.id);
    expect(content?.page).toMatchObject({ title: "Third", icon: "⭐", revision: 4, updatedPosition: position });
    expect(content?.markdown).toBe("v2");
    expect((await s.reader.pages.findByTitleKey("third", everyone(record.ownerId), 10)).map((p) => p.id)).toEqual([
      record.id,
    ]);
    expect(await s.reader.pages.findByTitleKey("second", everyone(record.ownerId), 10)).toEqual([]);
  });

  it("hides a removed page from get, content, lists and title lookups", async () => {
    const owner = randomUUID();
    const record = page(owner, null, "Gone");
    await batch(async (tx) => w().pages.put(tx, record, "x"));
    await batch(async (tx) => w().pages.remove(tx, record.id));
    expect(await s.reader.pages.get(record.id)).toBeNull();
    expect(await s.reader.pages.getContent(record.id)).toBeNull();
    expect(await s.reader.pages.findByTitleKey("gone", everyone(owner), 10)).toEqual([]);
    expect(
      await s.reader.pages.list({
        visibleTo: { ownerIds: [owner], pageIds: [], folderIds: [] },
        before: null,
        limit: 10,
        parentId: null,
      }),
    ).toEqual([]);
  });

  it("finds pages by title only among those the caller can see, however many foreign pages share the title", async () => {
    const me = randomUUID();
    const stranger = randomUUID();
    const mine = page(me, null, "Budget");
    await batch(async (tx) => w().pages.put(tx, mine, ""));
    await batch(async (tx) => {
      for (let i = 0; i < 1_000; i += 1) await w().pages.put(tx, page(stranger, null, " budget "), "");
    });
    const found = await s.reader.pages.findByTitleKey("budget", { ownerIds: [me], pageIds: [], folderIds: [] }, 1);
    expect(found.map((p) => p.id)).toEqual([mine.id]);
    expect(
      await s.reader.pages.findByTitleKey("budget", { ownerIds: [randomUUID()], pageIds: [], folderIds: [] }, 10),
    ).toEqual([]);
    const top = folder(stranger);
    const inGrantedFolder = page(stranger, folder(stranger, top), "Budget");
    const granted = page(stranger, null, "Budget");
    await batch(async (tx) => {
      await w().pages.put(tx, inGrantedFolder, "");
      await w().pages.put(tx, granted, "");
    });
    const throughGrants = await s.reader.pages.findByTitleKey(
      "budget",
      { ownerIds: [me], pageIds: [granted.id], folderIds: [top.id] },
      10,
    );
    expect(throughGrants.map((p) => p.id)).toEqual([granted.id, inGrantedFolder.id, mine.id]);
  });

  it("places a moved folder's subtree: folders and pages below take the new ancestors and path, and count as changed", async () => {
    const owner = randomUUID();
    const stranger = randomUUID();
    const named = (name: string, parent: FolderRecord | null): FolderRecord => ({
      ...folder(owner, parent),
      name,
      path: parent ? `${parent.path}/${name}` : name,
    });
    const a = named("A", null);
    const b = named("B", null);
    const c = named("C", b);
    const inside = page(owner, c, "Deep");
    await batch(async (tx) => {
      for (const f of [a, b, c]) await w().folders.put(tx, f);
      await w().pages.put(tx, inside, "");
    });
    const moved = at();
    const placedB: FolderRecord = { ...b, parentId: a.id, ancestorIds: [a.id], path: "A/B", ...moved };
    await batch(async (tx) => {
      await w().folders.place(tx, placedB, moved);
      await w().pages.placeBelow(tx, placedB, moved);
    });
    expect(await s.reader.folders.get(c.id)).toMatchObject({
      ancestorIds: [b.id, a.id],
      path: "A/B/C",
      updatedPosition: moved.updatedPosition,
    });
    expect(await s.reader.pages.get(inside.id)).toMatchObject({
      ancestorIds: [c.id, b.id, a.id],
      folderPath: "A/B/C",
      updatedPosition: moved.updatedPosition,
    });
    const throughA = { ownerIds: [stranger], pageIds: [], folderIds: [a.id] };
    expect(
      (await s.reader.pages.list({ visibleTo: throughA, before: null, limit: 10, parentId: null })).map((p) => p.id),
    ).toEqual([inside.id]);
    expect(
      (await s.reader.folders.list({ visibleTo: throughA, before: null, limit: 10 })).map((f) => f.id).sort(),
    ).toEqual([a.id, b.id, c.id].sort());
    expect(
      (await s.reader.folders.list({ visibleTo: throughA, before: null, limit: 10, parentId: a.id })).map((f) => f.id),
    ).toEqual([b.id]);
    expect(
      (await s.reader.folders.list({ visibleTo: throughA, before: null, limit: 10, parentId: b.id })).map((f) => f.id),
    ).toEqual([c.id]);

    const renamedA: FolderRecord = { ...a, name: "Z", path: "Z", ...at() };
    await batch(async (tx) => {
      await w().folders.place(tx, renamedA, null);
      await w().pages.placeBelow(tx, renamedA, null);
    });
    expect(await s.reader.pages.get(inside.id)).toMatchObject({
      folderPath: "Z/B/C",
      updatedPosition: moved.updatedPosition,
    });
    expect(await s.reader.folders.get(c.id)).toMatchObject({ path: "Z/B/C" });
  });

  it("pages through items sharing one position (a folder move) one by one, by id, through every source", async () => {
    const owner = randomUUID();
    const destination = { ...folder(owner), name: "D", path: "D" };
    const moving = { ...folder(owner), name: "M", path: "M" };
    const records = Array.from({ length: 11 }, () => page(owner, moving));
    await batch(async (tx) => {
      for (const f of [destination, moving]) await w().folders.put(tx, f);
      for (const record of records) await w().pages.put(tx, record, "");
    });
    const moved = at();
    const placed: FolderRecord = {
      ...moving,
      parentId: destination.id,
      ancestorIds: [destination.id],
      path: "D/M",
      ...moved,
    };
    await batch(async (tx) => {
      await w().folders.place(tx, placed, moved);
      await w().pages.placeBelow(tx, placed, moved);
    });
    const walk = async (visibleTo: VisibleTo, parentId: string | null): Promise<string[]> => {
      const seen: string[] = [];
      for (let before: ListKey | null = null; ;) {
        const rows = await s.reader.pages.list({ visibleTo, before, limit: 4, parentId });
        const kept = rows.slice(0, 4);
        seen.push(...kept.map((row) => row.id));
        const last = kept[kept.length - 1];
        if (rows.length <= 4 || !last) return seen;
        before = { position: last.updatedPosition, id: last.id };
      }
    };
    const expected = records
      .map((r) => r.id)
      .sort()
      .reverse();
    const throughDestination = { ownerIds: [randomUUID()], pageIds: [], folderIds: [destination.id] };
    const throughPages = { ownerIds: [randomUUID()], pageIds: records.map((r) => r.id), folderIds: [] };
    for (const visibleTo of [everyone(owner), throughDestination, throughPages]) {
      expect(await walk(visibleTo, null)).toEqual(expected);
      expect(await walk(visibleTo, moving.id)).toEqual(expected);
    }
  });

  it("moves a page: its place, its visibility through folder grants and its position in lists", async () => {
    const owner = randomUUID();
    const shared = { ...folder(owner), name: "S", path: "S" };
    const record = page(owner, shared, "Moving");
    await batch(async (tx) => {
      await w().folders.put(tx, shared);
      await w().pages.put(tx, record, "");
    });
    const throughShared = { ownerIds: [randomUUID()], pageIds: [], folderIds: [shared.id] };
    expect(
      (await s.reader.pages.list({ visibleTo: throughShared, before: null, limit: 10, parentId: null })).map(
        (p) => p.id,
      ),
    ).toEqual([record.id]);
    const moved = at();
    await batch(async (tx) =>
      w().pages.put(tx, { ...record, parentId: null, ancestorIds: [], folderPath: "", ...moved, revision: 1 }),
    );
    expect(await s.reader.pages.get(record.id)).toMatchObject({
      parentId: null,
      ancestorIds: [],
      folderPath: "",
      revision: 1,
      updatedPosition: moved.updatedPosition,
    });
    expect(await s.reader.pages.list({ visibleTo: throughShared, before: null, limit: 10, parentId: null })).toEqual(
      [],
    );
    expect(await s.reader.pages.findByTitleKey("moving", throughShared, 10)).toEqual([]);
    expect(await s.reader.folders.isEmpty(shared.id)).toBe(true);
  });

  it("says whether a folder holds anything, and removes a folder", async () => {
    const owner = randomUUID();
    const top = folder(owner);
    const child = folder(owner, top);
    const record = page(owner, child);
    await batch(async (tx) => {
      await w().folders.put(tx, top);
      await w().folders.put(tx, child);
      await w().pages.put(tx, record, "");
    });
    expect(await s.reader.folders.isEmpty(top.id)).toBe(false);
    expect(await s.reader.folders.isEmpty(child.id)).toBe(false);
    await batch(async (tx) => w().pages.remove(tx, record.id));
    expect(await s.reader.folders.isEmpty(child.id)).toBe(true);
    await batch(async (tx) => w().folders.remove(tx, child.id));
    expect(await s.reader.folders.get(child.id)).toBeNull();
    expect(await s.reader.folders.isEmpty(top.id)).toBe(true);
    expect(
      (await s.reader.folders.list({ visibleTo: everyone(owner), before: null, limit: 10 })).map((f) => f.id),
    ).toEqual([top.id]);
  });
}
