// What the MongoDB adapter stores and asks for, tested without a server: the folded text its search patterns run
// over (MongoDB's regular expressions are PCRE; these patterns use nothing JavaScript reads differently), and
// the access keys its listings match.
import { describe, expect, it } from "vitest";
import { accessKeysOf, visibleKeys } from "../../../shared/adapters/mongodb/access-keys.ts";
import {
  fold,
  foldedText,
  SEARCH_TEXT_LIMIT,
  textPattern,
  wordsOfFolded,
} from "../../../shared/adapters/mongodb/page-search.mongo.ts";
import { parseSearch } from "../../../shared/pages/page-search.ts";

const matches = (q: string, text: string): boolean =>
  parseSearch(q).every((term) => new RegExp(textPattern(fold(term))).test(foldedText(text)));

describe("MongoDB search text", () => {
  it("folds case, diacritics and compatibility forms into padded words", () => {
    expect(foldedText("Le Résumé, ﬁnal: NAÏVE plan!")).toBe(" le resume final naive plan ");
    expect(wordsOfFolded(foldedText("a b  a"))).toEqual(["a", "b", "a"]);
    expect(foldedText("")).toBe("  ");
  });

  it("matches whole words, prefixes and phrases, never a word inside another", () => {
    expect(matches("resume", "My RÉSUMÉ here")).toBe(true);
    expect(matches("res", "My résumé")).toBe(false);
    expect(matches("res*", "My résumé")).toBe(true);
    expect(matches("sume", "My résumé")).toBe(false);
    expect(matches('"naive plan"', "the naïve plan works")).toBe(true);
    expect(matches('"plan naive"', "the naïve plan works")).toBe(false);
    expect(matches("a.b", "a b")).toBe(true);
    expect(matches("plan works", "works, the plan")).toBe(true);
  });

  it("counts every occurrence of a term, neighbours included (the relevance score)", () => {
    const count = (q: string, text: string) =>
      parseSearch(q).map((term) => foldedText(text).match(new RegExp(textPattern(fold(term)), "g"))?.length ?? 0);
    expect(count("plan", "Plan plan, PLAN planning")).toEqual([3]);
    expect(count("plan*", "Plan plan, PLAN planning")).toEqual([4]);
    expect(count('"plan plan"', "plan plan plan")).toEqual([1]);
  });

  it("keeps only the first SEARCH_TEXT_LIMIT characters of a huge page, cut between words", () => {
    const huge = foldedText("word ".repeat(SEARCH_TEXT_LIMIT));
    expect(huge.length).toBeLessThanOrEqual(SEARCH_TEXT_LIMIT + 2);
    expect(huge.endsWith(" word ")).toBe(true);
  });
});

describe("MongoDB access keys", () => {
  it("lets a caller's keys meet an item's through its owner, itself or a folder above it", () => {
    const page = accessKeysOf("page", { id: "p1", ownerId: "o1", ancestorIds: ["f2", "f1"] });
    const meets = (visible: Parameters<typeof visibleKeys>[0]) =>
      visibleKeys(visible).some((key) => page.includes(key));
    expect(meets({ ownerIds: ["o1"], pageIds: [], folderIds: [] })).toBe(true);
    expect(meets({ ownerIds: [], pageIds: ["p1"], folderIds: [] })).toBe(true);
    expect(meets({ ownerIds: [], pageIds: [], folderIds: ["f1"] })).toBe(true);
    expect(meets({ ownerIds: ["o2"], pageIds: ["f1"], folderIds: ["p1"] })).toBe(false);
    expect(accessKeysOf("folder", { id: "f3", ownerId: "o1", ancestorIds: [] })).toEqual(["o:o1", "f:f3"]);
  });
});
