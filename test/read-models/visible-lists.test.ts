// Listing what a caller can see must cost what they can see, not what the store holds: the list queries
// reach pages and folders only through indexes, and page correctly across the ways access is held.
import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { foldersSchema, LIST_VISIBLE_FOLDERS } from "../../shared/folders/folders.view.sqlite.ts";
import { PAGES_BELOW_FOLDER, PAGES_BY_ID, PAGES_OF_OWNER, pagesSchema } from "../../shared/pages/pages.view.sqlite.ts";
import type { VisibleTo } from "../../shared/read-store/list-query.ts";
import { SqliteReadStore } from "../../shared/read-store/sqlite.read-store.ts";
import { tempDir } from "../support/temp-dir.ts";

let store: SqliteReadStore;
let remove: () => Promise<void>;
let position = 0;
beforeEach(async () => {
  const dir = await tempDir();
  remove = dir.remove;
  store = new SqliteReadStore(join(dir.path, "read-models.sqlite"));
});
afterEach(async () => {
  await store.close();
  await remove();
});

async function folder(ownerId: string, parent: { id: string; ancestorIds: string[] } | null = null) {
  position += 1;
  const record = {
    id: randomUUID(),
    ownerId,
    parentId: parent?.id ?? null,
    name: `f${position}`,
    icon: null,
    ancestorIds: parent ? [parent.id, ...parent.ancestorIds] : [],
    path: `f${position}`,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    updatedPosition: position,
  };
  await store.folders.put(record);
  return record;
}

async function page(ownerId: string, parent: { id: string; ancestorIds: string[] } | null = null) {
  position += 1;
  const record = {
    id: randomUUID(),
    ownerId,
    parentId: parent?.id ?? null,
    title: `p${position}`,
    icon: null,
    ancestorIds: parent ? [parent.id, ...parent.ancestorIds] : [],
    folderPath: "",
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    updatedPosition: position,
    revision: 0,
  };
  await store.pages.create(record, "");
  return record;
}

/** Every page of a list, following cursors the way a client does. */
async function walkPages(visibleTo: VisibleTo, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let before: number | null = null;
  for (;;) {
    const rows = await store.pages.list({ visibleTo, before, limit, parentId: null });
    const kept = rows.slice(0, limit);
    seen.push(...kept.map((row) => row.id));
    const last = kept[kept.length - 1];
    if (rows.length <= limit || !last) return seen;
    before = last.updatedPosition;
  }
}

describe("visible lists", () => {
  it("reach pages and folders only from the caller's owners, grants and granted folders", () => {
    const db = new Database(":memory:");
    db.exec(pagesSchema);
    db.exec(foldersSchema);
    const params = { before: 1, owners: "[]", pages: "[]", folders: "[]", limit: 3 };
    const folderPlan = db.prepare<[typeof params], { detail: string }>(`EXPLAIN QUERY PLAN ${LIST_VISIBLE_FOLDERS}`).all(params).map((step) => step.detail);
    // Each read of the table must start from an owner or an id: a range over updated_pos alone walks everything.
    expect(folderPlan.filter((step) => /^(SCAN|SEARCH) f\b/.test(step) && !/\((owner_id|id)=\?/.test(step))).toEqual([]);
    // Pages: each source is read newest first straight from its own index, with no sort of everything it holds.
    for (const sql of [PAGES_OF_OWNER, PAGES_BELOW_FOLDER, PAGES_BY_ID]) {
      const plan = db.prepare<[string, number, number], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all("x", 1, 3).map((step) => step.detail);
      expect(plan.some((step) => /^SCAN (pages|p|a)\b(?! USING)/.test(step)), `${sql}: ${plan.join("; ")}`).toBe(false);
      if (sql !== PAGES_BY_ID) expect(plan.join("; "), sql).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    }
    db.close();
  });

  it("page through pages seen by workspace, page grant and nested folder grants, each once, newest first", async () => {
    const me = randomUUID();
    const other = randomUUID();
    const top = await folder(other);
    const inner = await folder(other, top);
    const expected: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      expected.push((await page(me)).id);
      expected.push((await page(other, inner)).id);
      await page(other);
      await page(randomUUID());
    }
    const granted = await page(other);
    expected.push(granted.id);
    const visibleTo = { ownerIds: [me], pageIds: [granted.id], folderIds: [top.id, inner.id] };
    expect(await walkPages(visibleTo, 3)).toEqual(expected.reverse());
  });
});
