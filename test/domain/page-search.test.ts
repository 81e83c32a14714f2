import { describe, expect, it } from "vitest";
import { AppError } from "../../shared/errors/app-error.ts";
import {
  decodeSearchCursor,
  encodeSearchCursor,
  parseSearch,
  renderSnippet,
  snippetOf,
} from "../../shared/pages/page-search.ts";

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
    expect(
      renderSnippet([
        { text: "a <b> & ", marked: false },
        { text: "plan", marked: true },
      ]),
    ).toBe("a &lt;b&gt; &amp; <mark>plan</mark>");
  });

  it("a cursor is valid only for the query it came from", () => {
    const terms = parseSearch("plan");
    expect(decodeSearchCursor(encodeSearchCursor(20, terms), terms)).toBe(20);
    expect(() => decodeSearchCursor(encodeSearchCursor(20, terms), parseSearch("other"))).toThrow(AppError);
    expect(decodeSearchCursor(undefined, terms)).toBe(0);
  });
});

describe("snippets cut from the text", () => {
  const render = (text: string, q: string, maxWords?: number) => {
    const parts = snippetOf(text, parseSearch(q), maxWords);
    return parts === null ? null : renderSnippet(parts);
  };

  it("marks every matched word, folding case and diacritics, and a phrase as one run", () => {
    expect(render("Le Café est prêt, le CAFE aussi.", "cafe")).toBe(
      "Le <mark>Café</mark> est prêt, le <mark>CAFE</mark> aussi.",
    );
    expect(render("the next steps and next time", `"next steps"`)).toBe("the <mark>next steps</mark> and next time");
    expect(render("planning the plan", "plan*")).toBe("<mark>planning</mark> the <mark>plan</mark>");
  });

  it("starts a little before the first match and cuts with an ellipsis on either side", () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`);
    words[50] = "target";
    expect(render(words.join(" "), "target", 8)).toBe("…w48 w49 <mark>target</mark> w51 w52 w53 w54 w55…");
  });

  it("answers null when no term is in the text", () => {
    expect(snippetOf("nothing here", parseSearch("absent"))).toBeNull();
  });
});

describe("a search's cost bounded before it runs", () => {
  it("refuses more than two prefix terms, a one-character prefix, and more than three phrases", () => {
    expect(parseSearch("plan* rel* note")).toHaveLength(3);
    for (const q of ["plan* rel* not*", "a* plan", `"a b" "c d" "e f" "g h"`, `"${"w ".repeat(9)}"`]) {
      expect(() => parseSearch(q)).toThrow(expect.objectContaining({ code: "validation_failed" }));
    }
  });
});
