import { describe, expect, it } from "vitest";
import { AppError } from "../../shared/errors/app-error.ts";
import { decodeSearchCursor, encodeSearchCursor, parseSearch, renderSnippet } from "../../shared/pages/page-search.ts";

describe("search query syntax", () => {
  it("reads words, prefixes and quoted phrases; punctuation separates words", () => {
    expect(parseSearch(`release plan* "next  steps" don't`)).toEqual([
      { kind: "word", text: "release", prefix: false },
      { kind: "word", text: "plan", prefix: true },
      { kind: "phrase", words: ["next", "steps"] },
      { kind: "word", text: "don", prefix: false },
      { kind: "word", text: "t", prefix: false },
    ]);
  });

  it("a one-word phrase is a word; an unclosed quote runs to the end", () => {
    expect(parseSearch(`"solo"`)).toEqual([{ kind: "word", text: "solo", prefix: false }]);
    expect(parseSearch(`"open ended`)).toEqual([{ kind: "phrase", words: ["open", "ended"] }]);
  });

  it("refuses a query without a word, or with too many terms", () => {
    for (const q of ["*", `""`, "!!"]) expect(() => parseSearch(q)).toThrow(AppError);
    expect(() => parseSearch(Array.from({ length: 17 }, (_, i) => `w${i}`).join(" "))).toThrow(AppError);
  });
});

describe("snippets and cursors", () => {
  it("escapes the page's text and marks matched words", () => {
    expect(renderSnippet([{ text: "a <b> & ", marked: false }, { text: "plan", marked: true }])).toBe("a &lt;b&gt; &amp; <mark>plan</mark>");
  });

  it("a cursor is valid only for the query it came from", () => {
    const terms = parseSearch("plan");
    expect(decodeSearchCursor(encodeSearchCursor(20, terms), terms)).toBe(20);
    expect(() => decodeSearchCursor(encodeSearchCursor(20, terms), parseSearch("other"))).toThrow(AppError);
    expect(decodeSearchCursor(undefined, terms)).toBe(0);
  });
});
