// Listing what a caller can see must cost what they can see, not what the store holds: the list queries
// reach pages and folders only through indexes.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { foldersModel, LIST_VISIBLE_FOLDERS } from "../../shared/adapters/sqlite/folders.view.sqlite.ts";
import {
  PAGES_BELOW_FOLDER,
  PAGES_BY_ID,
  PAGES_OF_OWNER,
  pagesModel,
} from "../../shared/adapters/sqlite/pages.view.sqlite.ts";

describe("visible lists", () => {
  it("reach pages and folders only from the caller's owners, grants and granted folders", () => {
    const db = new Database(":memory:");
    db.exec(pagesModel.schema);
    db.exec(foldersModel.schema);
    const params = { before: 1, beforeId: "", owners: "[]", pages: "[]", folders: "[]", limit: 3, parent: null };
    const folderPlan = db
      .prepare<[typeof params], { detail: string }>(`EXPLAIN QUERY PLAN ${LIST_VISIBLE_FOLDERS}`)
      .all(params)
      .map((step) => step.detail);
    // Each read of the table must start from an owner or an id: a range over updated_pos alone walks everything.
    expect(folderPlan.filter((step) => /^(SCAN|SEARCH) f\b/.test(step) && !/\((owner_id|id)=\?/.test(step))).toEqual(
      [],
    );
    // Pages: each source is read newest first straight from its own index, with no sort of everything it holds.
    for (const sql of [PAGES_OF_OWNER, PAGES_BELOW_FOLDER, PAGES_BY_ID]) {
      const plan = db
        .prepare<[string, number, string, number], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all("x", 1, "", 3)
        .map((step) => step.detail);
      expect(
        plan.some((step) => /^SCAN (pages|p|a)\b(?! USING)/.test(step)),
        `${sql}: ${plan.join("; ")}`,
      ).toBe(false);
      if (sql !== PAGES_BY_ID) {
        expect(plan.join("; "), sql).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
        // The (position, id) cursor bounds the index range rather than filtering a walk from the newest row.
        expect(plan.join("; "), sql).toMatch(/\(updated_pos, ?\w*id\)<\(\?,\?\)|updated_pos<\?/);
      }
    }
    db.close();
  });
});
