// Full-text search on MongoDB without its $text operator (which neither finds prefixes nor requires every
// word): each page keeps its folded words, and a query asks for every term through the multikey `words`
// index (a prefix as an anchored regex, which is an index range), a phrase also as a run of folded words in
// the padded title or body text. Hits whose title holds every term come first, then by how often the terms
// occur (in the title ten times the weight of the body, as SQLite's bm25 weights them), then by page id;
// snippets are cut from the markdown of the page of hits alone. Case and diacritics fold as in SQLite.
// A search ranks at most SEARCH_CANDIDATES matching pages (the most recently updated), counts occurrences in
// the first SCORE_BODY_CHARS of each body, and runs under SEARCH_MAX_TIME_MS (maxTimeMS), so no query scores
// every matching page in full.
// Only the first SEARCH_TEXT_LIMIT characters of a page's folded text are searched, which keeps a page's
// document well inside MongoDB's 16 MB. Filters are conditions of the same $match: a folder or an owner is one
// more access key the page must carry, an updated range a condition on updatedAt, `in=title` each term
// matched in the padded title text too.
import { MongoServerError, type Collection, type Document } from "mongodb";
import { AppError } from "../../errors/app-error.ts";
import { z } from "zod";
import {
  foldWord,
  SEARCH_WORD,
  searchText,
  snippetOf,
  type SearchFilters,
  type SearchHit,
  type SearchQuery,
  type SearchTerm,
} from "../../pages/page-search.ts";
import { visibleKeys } from "./access-keys.ts";
import { toPageRecord, type PageDoc } from "./page-doc.mongo.ts";

/** The folded words of a text, one space between them and one at each end (so " word " finds a whole word). */
export function foldedText(text: string): string {
  const words = (searchText(text).match(SEARCH_WORD) ?? []).map(foldWord).filter((word) => word !== "");
  const joined = words.join(" ");
  if (joined.length <= SEARCH_TEXT_LIMIT) return ` ${joined} `;
  const cut = joined.lastIndexOf(" ", SEARCH_TEXT_LIMIT);
  return ` ${joined.slice(0, cut === -1 ? SEARCH_TEXT_LIMIT : cut)} `;
}

/** Characters of a page's folded text that search sees (about a megabyte of words). */
export const SEARCH_TEXT_LIMIT = 1_000_000;

export const wordsOfFolded = (text: string): string[] => text.split(" ").filter((word) => word !== "");

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

type FoldedTerm = { kind: "word"; word: string; prefix: boolean } | { kind: "phrase"; words: string[] };

export const fold = (term: SearchTerm): FoldedTerm =>
  term.kind === "word"
    ? { kind: "word", word: foldWord(term.text), prefix: term.prefix }
    : { kind: "phrase", words: term.words.map(foldWord) };

/** The term as a pattern over a padded folded text; the space after it is looked ahead at, so that counting matches finds neighbours. */
export function textPattern(term: FoldedTerm): string {
  if (term.kind === "phrase") return `${escapeRegex(` ${term.words.join(" ")}`)}(?= )`;
  return term.prefix ? escapeRegex(` ${term.word}`) : `${escapeRegex(` ${term.word}`)}(?= )`;
}

const TITLE_WEIGHT = 10;
const occurrences = (field: unknown, regex: string) => ({ $size: { $regexFindAll: { input: field, regex } } });

function termFilter(term: FoldedTerm, titleOnly: boolean): Record<string, unknown> {
  const pattern = textPattern(term);
  // The words index still chooses the candidates; the title pattern only tests them.
  const inTitle = titleOnly ? { titleText: { $regex: pattern } } : {};
  if (term.kind === "word")
    return { words: term.prefix ? { $regex: `^${escapeRegex(term.word)}` } : term.word, ...inTitle };
  return {
    words: { $all: term.words },
    ...(titleOnly ? inTitle : { $or: [{ titleText: { $regex: pattern } }, { bodyText: { $regex: pattern } }] }),
  };
}

/** The filters as conditions of the search's $match; the caller's visibility is the first access-key condition. */
function filterConditions(filters: SearchFilters): Record<string, unknown>[] {
  const updated = {
    ...(filters.updatedAfter !== undefined ? { $gt: filters.updatedAfter } : {}),
    ...(filters.updatedBefore !== undefined ? { $lt: filters.updatedBefore } : {}),
  };
  return [
    ...(filters.folderId !== undefined ? [{ accessKeys: `f:${filters.folderId}` }] : []),
    ...(filters.ownerId !== undefined ? [{ ownerId: filters.ownerId }] : []),
    ...(Object.keys(updated).length > 0 ? [{ updatedAt: updated }] : []),
  ];
}

const hitSchema = z.object({ markdown: z.string(), title: z.string() });
const rankedIdSchema = z.object({ _id: z.string(), inTitle: z.boolean() });
type RankedId = z.infer<typeof rankedIdSchema>;

/**
 * Pages a search ranks at most: of the pages matching every term, the most recently updated. Scoring counts
 * occurrences with regular expressions, so its cost grows with the pages scored and their text; a common
 * word matching a hundred thousand pages scores these alone, in a top-k sort that holds only them.
 */
export const SEARCH_CANDIDATES = 1_000;
/** Characters of a page's body text in which its occurrences are counted for the score (a page matches on all of it). */
export const SCORE_BODY_CHARS = 20_000;
/** A search still running after this is stopped by the server and answered 503. */
const SEARCH_MAX_TIME_MS = 5_000;

/**
 * The two aggregations of a search. The first finds the candidates through the words index and keeps only their
 * ids (so its top-k sort holds ids and dates, not whole pages); the second scores those alone and pages them,
 * again keeping ids and scores only; the pages of the answer are then read by id.
 */
export function searchPipelines(
  query: SearchQuery,
): { candidates: Document[]; ranking: (ids: readonly string[]) => Document[] } | null {
  const terms = query.terms.map(fold);
  if (terms.some((term) => (term.kind === "word" ? term.word === "" : term.words.some((word) => word === ""))))
    return null;
  const filters = query.filters ?? {};
  const titleOnly = filters.titleOnly === true;
  const match = {
    deleted: false,
    accessKeys: { $in: visibleKeys(query.visibleTo) },
    $and: [...terms.map((term) => termFilter(term, titleOnly)), ...filterConditions(filters)],
  };
  const inTitle = { $and: terms.map((term) => ({ $regexMatch: { input: "$titleText", regex: textPattern(term) } })) };
  const scoredBody = { $substrCP: ["$bodyText", 0, SCORE_BODY_CHARS] };
  const score = {
    $add: terms.flatMap((term) => [
      { $multiply: [TITLE_WEIGHT, occurrences("$titleText", textPattern(term))] },
      occurrences(scoredBody, textPattern(term)),
    ]),
  };
  return {
    candidates: [
      { $match: match },
      { $project: { _id: 1, updatedAt: 1 } },
      { $sort: { updatedAt: -1, _id: 1 } },
      { $limit: SEARCH_CANDIDATES },
      { $project: { _id: 1 } },
    ],
    ranking: (ids) => [
      { $match: { _id: { $in: [...ids] } } },
      { $project: { _id: 1, inTitle, score } },
      { $sort: { inTitle: -1, score: -1, _id: 1 } },
      { $skip: query.offset },
      { $limit: query.limit + 1 },
    ],
  };
}

const isTimeLimit = (error: unknown): boolean =>
  error instanceof MongoServerError && (error.codeName === "MaxTimeMSExpired" || error.code === 50);

export async function searchPages(pages: Collection<PageDoc>, query: SearchQuery): Promise<SearchHit[]> {
  const pipelines = searchPipelines(query);
  if (pipelines === null) return [];
  const titleOnly = query.filters?.titleOnly === true;
  let ranked: RankedId[];
  let docs: Document[];
  try {
    const started = Date.now();
    const left = () => Math.max(1, SEARCH_MAX_TIME_MS - (Date.now() - started));
    const candidates = await pages.aggregate<{ _id: string }>(pipelines.candidates, { maxTimeMS: left() }).toArray();
    if (candidates.length === 0) return [];
    ranked = (
      await pages
        .aggregate(pipelines.ranking(candidates.map((candidate) => candidate._id)), { maxTimeMS: left() })
        .toArray()
    ).map((doc) => rankedIdSchema.parse(doc));
    docs = await pages
      .find(
        { _id: { $in: ranked.map((hit) => hit._id) }, deleted: false },
        { projection: { titleText: 0, bodyText: 0, words: 0, accessKeys: 0 }, maxTimeMS: left() },
      )
      .toArray();
  } catch (error) {
    if (isTimeLimit(error))
      throw new AppError("unavailable", "the search took too long; narrow it with more or longer words, or a folder", {
        "retry-after": "5",
      });
    throw error;
  }
  const byId = new Map(docs.map((doc) => [String(doc._id), doc]));
  return ranked.flatMap(({ _id, inTitle }) => {
    const doc = byId.get(_id);
    // A page deleted between the reads is left out, as if the search had run a moment later.
    if (!doc) return [];
    const hit = hitSchema.parse(doc);
    const snippet = (titleOnly ? null : snippetOf(hit.markdown, query.terms)) ??
      snippetOf(hit.title, query.terms) ?? [{ text: hit.title, marked: false }];
    return [{ page: toPageRecord(doc), inTitle, snippet }];
  });
}
