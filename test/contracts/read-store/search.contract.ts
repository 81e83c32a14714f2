// Part of the read-store contract (read-store.contract.ts). Search: matching, ranking, snippets and filters,
// inside the visibility of the caller.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import type { PageRecord } from "../../../shared/pages/page-record.ts";
import type { SearchFilters } from "../../../shared/pages/page-search.ts";
import { at, folder, page, type ContractStores } from "./stores.ts";

export function searchCases<Tx>(s: ContractStores<Tx>): void {
  const { batch, w } = s;
  it("searches titles and markdown of visible live pages: title hits first, phrases, prefixes, folded case and diacritics, marked snippets", async () => {
    const me = randomUUID();
    const other = randomUUID();
    const top = folder(other);
    const inTitle = page(me, null, "Résumé of the plan");
    const inBody = page(me, null, "Notes");
    const throughFolder = page(other, top, "Folder page");
    const hidden = page(other, null, "Resume hidden");
    const gone = page(me, null, "Resume gone");
    await batch(async (tx) => {
      await w().folders.put(tx, top);
      await w().pages.put(tx, inTitle, "short");
      await w().pages.put(tx, inBody, "the RESUME is long and the naive plan works");
      await w().pages.put(tx, throughFolder, "a resume inside a shared folder");
      await w().pages.put(tx, hidden, "resume resume resume");
      await w().pages.put(tx, gone, "resume");
    });
    await batch(async (tx) => w().pages.remove(tx, gone.id));
    const visibleTo = { ownerIds: [me], pageIds: [], folderIds: [top.id] };
    const word = (text: string, prefix = false) => ({ kind: "word" as const, text, prefix });
    const hits = await s.reader.pages.search({ terms: [word("resume")], visibleTo, offset: 0, limit: 10 });
    expect(hits.map((hit) => hit.page.id).slice(0, 1)).toEqual([inTitle.id]);
    expect(hits.map((hit) => hit.page.id).sort()).toEqual([inTitle.id, inBody.id, throughFolder.id].sort());
    expect(hits[0]?.inTitle).toBe(true);
    const body = hits.find((hit) => hit.page.id === inBody.id);
    expect(body?.snippet).toContainEqual({ text: "RESUME", marked: true });
    expect(body?.page).toMatchObject({ id: inBody.id, title: "Notes", ownerId: me });

    const phrase = await s.reader.pages.search({
      terms: [{ kind: "phrase", words: ["naïve", "plan"] }],
      visibleTo,
      offset: 0,
      limit: 10,
    });
    expect(phrase.map((hit) => hit.page.id)).toEqual([inBody.id]);
    expect((await s.reader.pages.search({ terms: [word("res", true)], visibleTo, offset: 0, limit: 10 })).length).toBe(
      3,
    );
    expect(await s.reader.pages.search({ terms: [word("res")], visibleTo, offset: 0, limit: 10 })).toEqual([]);

    const firstTwo = await s.reader.pages.search({ terms: [word("resume")], visibleTo, offset: 0, limit: 1 });
    expect(firstTwo).toHaveLength(2);
    const rest = await s.reader.pages.search({ terms: [word("resume")], visibleTo, offset: 2, limit: 1 });
    expect(rest.map((hit) => hit.page.id)).toEqual(hits.slice(2).map((hit) => hit.page.id));

    const moved = at();
    await batch(async (tx) =>
      w().pages.put(tx, { ...throughFolder, parentId: null, ancestorIds: [], folderPath: "", ...moved, revision: 1 }),
    );
    expect(await s.reader.pages.search({ terms: [word("shared")], visibleTo, offset: 0, limit: 10 })).toEqual([]);
  });

  it("narrows a search by folder (and below), owner, updated range and title inside the same query", async () => {
    const me = randomUUID();
    const other = randomUUID();
    const top = folder(me);
    const inner = folder(me, top);
    const shared = folder(other);
    const atRoot = page(me, null, "Budget");
    const inTop = page(me, top, "Top");
    const inInner = page(me, inner, "Inner budget");
    const theirs = page(other, shared, "Their budget");
    await batch(async (tx) => {
      for (const item of [top, inner, shared]) await w().folders.put(tx, item);
      for (const item of [atRoot, inTop, inInner, theirs]) await w().pages.put(tx, item, "the budget");
    });
    const visibleTo = { ownerIds: [me], pageIds: [], folderIds: [shared.id] };
    const found = async (filters: SearchFilters) =>
      (
        await s.reader.pages.search({
          terms: [{ kind: "word", text: "budget", prefix: false }],
          visibleTo,
          filters,
          offset: 0,
          limit: 10,
        })
      )
        .map((hit) => hit.page.id)
        .sort();
    const sorted = (...items: PageRecord[]) => items.map((item) => item.id).sort();
    expect(await found({})).toEqual(sorted(atRoot, inTop, inInner, theirs));
    expect(await found({ folderId: top.id })).toEqual(sorted(inTop, inInner));
    expect(await found({ ownerId: other })).toEqual(sorted(theirs));
    expect(await found({ ownerId: randomUUID() })).toEqual([]);
    expect(await found({ updatedAfter: inTop.updatedAt })).toEqual(sorted(inInner, theirs));
    expect(await found({ updatedBefore: inTop.updatedAt })).toEqual(sorted(atRoot));
    expect(await found({ titleOnly: true })).toEqual(sorted(atRoot, inInner, theirs));
    expect(await found({ folderId: top.id, titleOnly: true, updatedBefore: theirs.updatedAt })).toEqual(
      sorted(inInner),
    );
  });
}
