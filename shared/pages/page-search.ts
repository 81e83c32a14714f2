// Full-text search over pages, as the read-store port sees it: a parsed query (words, prefixes, phrases; every
// term must match), the visibility filter applied inside the store's query, and hits with a snippet whose
// matched words are marked. Parsing and rendering are pure; the store only matches and ranks.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { VisibleTo } from "../read-store/list-query.ts";
import type { PageRecord } from "./page-record.ts";

export type SearchTerm =
  | { readonly kind: "word"; readonly text: string; readonly prefix: boolean }
  | { readonly kind: "phrase"; readonly words: readonly string[] };

/**
 * Narrowing a search, applied by the store inside the same index query as the terms and the visibility (never
 * to the hits afterwards), so that a filter changes neither what an invisible page costs nor what it shows.
 */
export interface SearchFilters {
  /** Pages in this folder or any folder below it. The caller must be able to see the folder (the route checks). */
  readonly folderId?: string;
  /** Pages of this workspace owner. */
  readonly ownerId?: string;
  /** Pages last changed strictly after this instant (ISO-8601 in UTC, as `updatedAt` is stored). */
  readonly updatedAfter?: string;
  /** Pages last changed strictly before this instant. */
  readonly updatedBefore?: string;
  /** Every term must match the title; the markdown is not searched. */
  readonly titleOnly?: boolean;
}

export interface SearchQuery {
  readonly terms: readonly SearchTerm[];
  readonly visibleTo: VisibleTo;
  readonly filters?: SearchFilters;
  /** Hits to skip (the cursor), then how many to return; adapters return up to limit + 1. */
  readonly offset: number;
  readonly limit: number;
}

/** A run of snippet text, marked when it is a matched word. */
export interface SnippetPart {
  readonly text: string;
  readonly marked: boolean;
}

export interface SearchHit {
  readonly page: PageRecord;
  /** Whether every term matched the title: such hits rank before the others. */
  readonly inTitle: boolean;
  readonly snippet: readonly SnippetPart[];
}

const SEARCH_MAX_TERMS = 16;
/**
 * The terms whose cost grows with the index rather than the query, bounded before the query runs on the event
 * loop: a prefix reads the postings of every indexed word it begins (a short one, most of the vocabulary), a
 * phrase the positions of each of its words. Several of each over a large workspace held the loop for 430 ms.
 * The bound depends on the query alone, so it costs a visible hit what it costs a miss.
 */
const SEARCH_MAX_PREFIXES = 2;
const SEARCH_MIN_PREFIX_LENGTH = 2;
const SEARCH_MAX_PHRASES = 3;
const SEARCH_MAX_PHRASE_WORDS = 8;
/** Results a walk can reach: deeper offsets would cost more than any reader needs. */
export const SEARCH_MAX_OFFSET = 1_000;

/**
 * Text as both the index and the query see it: NFKC (so ligatures and width variants compare equal, and
 * accented letters are precomposed for the tokenizer to fold); case and diacritics are folded by the store.
 */
export const searchText = (text: string): string => text.normalize("NFKC");

/** What a word is, for the query and (in an adapter that needs it) for the indexed text alike. */
export const SEARCH_WORD = /[\p{L}\p{N}\p{M}]+/gu;
const WORD = SEARCH_WORD;
const wordsOf = (text: string): string[] => searchText(text).match(WORD) ?? [];

/**
 * `q` syntax: words (all must match, in the title or the markdown), `word*` for a prefix, `"several words"` for
 * a phrase. Punctuation separates words; an unclosed quote runs to the end.
 */
export function parseSearch(q: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const pattern = /"([^"]*)"?|([^\s"]+)/g;
  for (const match of q.matchAll(pattern)) {
    const [, phrase, bare] = match;
    if (phrase !== undefined) {
      const words = wordsOf(phrase);
      if (words.length === 1 && words[0] !== undefined) terms.push({ kind: "word", text: words[0], prefix: false });
      else if (words.length > 1) terms.push({ kind: "phrase", words });
    } else if (bare !== undefined) {
      const prefix = bare.endsWith("*");
      const words = wordsOf(bare);
      words.forEach((text, index) => terms.push({ kind: "word", text, prefix: prefix && index === words.length - 1 }));
    }
  }
  if (terms.length === 0) throw new AppError("validation_failed", "querystring.q: must hold at least one word");
  if (terms.length > SEARCH_MAX_TERMS)
    throw new AppError("validation_failed", `querystring.q: at most ${SEARCH_MAX_TERMS} words and phrases`);
  refuseCostlyTerms(terms);
  return terms;
}

function refuseCostlyTerms(terms: readonly SearchTerm[]): void {
  const prefixes = terms.flatMap((term) => (term.kind === "word" && term.prefix ? [term.text] : []));
  const phrases = terms.flatMap((term) => (term.kind === "phrase" ? [term.words] : []));
  const refuse = (why: string): never => {
    throw new AppError("validation_failed", `querystring.q: ${why}`);
  };
  if (prefixes.length > SEARCH_MAX_PREFIXES) refuse(`at most ${SEARCH_MAX_PREFIXES} prefix terms (word*)`);
  const short = prefixes.find((prefix) => [...prefix].length < SEARCH_MIN_PREFIX_LENGTH);
  if (short !== undefined)
    refuse(`a prefix term needs at least ${SEARCH_MIN_PREFIX_LENGTH} characters before its * (${short}*)`);
  if (phrases.length > SEARCH_MAX_PHRASES) refuse(`at most ${SEARCH_MAX_PHRASES} phrases`);
  if (phrases.some((words) => words.length > SEARCH_MAX_PHRASE_WORDS))
    refuse(`a phrase holds at most ${SEARCH_MAX_PHRASE_WORDS} words`);
}

const escapeHtml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The snippet as text safe to put in HTML: the page's words escaped, matched words in <mark>…</mark>. */
export function renderSnippet(parts: readonly SnippetPart[]): string {
  return parts.map((part) => (part.marked ? `<mark>${escapeHtml(part.text)}</mark>` : escapeHtml(part.text))).join("");
}

/** Search cursors: an offset into the ranked hits, tied to the query they came from. */
const searchCursorSchema = z.object({ o: z.number().int().min(1).max(SEARCH_MAX_OFFSET), q: z.string() });

/** The query a cursor belongs to: its terms and, when any is set, its filters (a cursor of other filters is refused). */
const queryKey = (terms: readonly SearchTerm[], filters: SearchFilters = {}): string =>
  Object.keys(filters).length === 0 ? JSON.stringify(terms) : JSON.stringify([terms, filters]);

export function encodeSearchCursor(offset: number, terms: readonly SearchTerm[], filters?: SearchFilters): string {
  return Buffer.from(JSON.stringify({ o: offset, q: queryKey(terms, filters) })).toString("base64url");
}

export function decodeSearchCursor(
  cursor: string | undefined,
  terms: readonly SearchTerm[],
  filters?: SearchFilters,
): number {
  if (cursor === undefined) return 0;
  try {
    const decoded = searchCursorSchema.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    if (decoded.q === queryKey(terms, filters)) return decoded.o;
  } catch {
    // answered below, like a cursor of another query
  }
  throw new AppError("validation_failed", "cursor: not a cursor returned by this search");
}

const ASCII = /^[\x00-\x7F]*$/;
const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;

/** A word as the index compares it: NFKC, diacritics removed, lower case (what unicode61 remove_diacritics 2 does). */
export const foldWord = (word: string): string =>
  ASCII.test(word) ? word.toLowerCase() : searchText(word).normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();

interface Token {
  readonly start: number;
  readonly end: number;
  readonly folded: string;
}

/**
 * The snippet of `text` for these terms: up to `maxWords` words from a little before the first match, with every
 * matched word (a phrase as one run) marked and "…" where the text was cut; null when no term matches it. The
 * text is read only as far as the window needs.
 */
export function snippetOf(text: string, terms: readonly SearchTerm[], maxWords = 24): SnippetPart[] | null {
  const words = terms.flatMap((term) =>
    term.kind === "word" ? [{ text: foldWord(term.text), prefix: term.prefix }] : [],
  );
  const phrases = terms.flatMap((term) => (term.kind === "phrase" ? [term.words.map(foldWord)] : []));
  const longest = Math.max(1, ...phrases.map((phrase) => phrase.length));
  const tokens: Token[] = [];
  const runs: Array<[number, number]> = [];
  let first = -1;
  for (const match of text.matchAll(SEARCH_WORD)) {
    const token = { start: match.index, end: match.index + match[0].length, folded: foldWord(match[0]) };
    const index = tokens.push(token) - 1;
    if (words.some((word) => (word.prefix ? token.folded.startsWith(word.text) : token.folded === word.text)))
      runs.push([index, index]);
    for (const phrase of phrases) {
      const from = index - phrase.length + 1;
      if (from >= 0 && phrase.every((word, offset) => tokens[from + offset]?.folded === word)) runs.push([from, index]);
    }
    if (first === -1 && runs.length > 0) first = Math.min(...runs.map(([start]) => start));
    if (first !== -1 && tokens.length >= first + maxWords + longest) break;
  }
  if (first === -1) return null;
  const from = Math.max(0, first - Math.floor(maxWords / 4));
  const to = Math.min(tokens.length, from + maxWords) - 1;
  const startToken = tokens[from];
  const endToken = tokens[to];
  if (!startToken || !endToken) return null;
  const marked = runs.filter(([start, end]) => start >= from && end <= to).sort(([a], [b]) => a - b);
  const parts: SnippetPart[] = [];
  const plain = (slice: string) => {
    if (slice !== "") parts.push({ text: slice, marked: false });
  };
  plain(from > 0 ? "…" : text.slice(0, startToken.start));
  let at = startToken.start;
  for (const [start, end] of marked) {
    const run = { start: tokens[start]?.start ?? at, end: tokens[end]?.end ?? at };
    if (run.start < at) continue;
    plain(text.slice(at, run.start));
    parts.push({ text: text.slice(run.start, run.end), marked: true });
    at = run.end;
  }
  plain(text.slice(at, endToken.end));
  plain(WORD_CHARACTER.test(text.slice(endToken.end)) ? "…" : text.slice(endToken.end));
  return parts;
}
