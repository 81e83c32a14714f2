// Full-text search on MongoDB without its $text operator (which neither finds prefixes nor requires every
// word): each page keeps its folded words, and a query asks for every term through the multikey `words`
// index (a prefix as an anchored regex, which is an index range), a phrase also as a run of folded words in
// the padded title or body text. Hits whose title holds every term come first, then by how often the terms
// occur (in the title ten times the weight of the body, as SQLite's bm25 weights them), then by page id;
// snippets are cut from the markdown of the page of hits alone. Case and diacritics fold as in SQLite.
// Only the first SEARCH_TEXT_LIMIT characters of a page's folded text are searched, which keeps a page's
// document well inside MongoDB's 16 MB. Filters are conditions of the same $match: a folder or an owner is one
// more access key the page must carry, an updated range a condition on updatedAt, `in=title` each term
// matched in the padded title text too.
import type { Collection } from "mongodb";
import { z } from "zod";
import { foldWord, SEARCH_WORD, searchText, snippetOf, type SearchFilters, type SearchHit, type SearchQuery, type SearchTerm } from "../../pages/page-search.ts";
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
  term.kind === "word" ? { kind: "word", word: foldWord(term.text), prefix: term.prefix } : { kind: "phrase", words: term.words.map(foldWord) };

/** The term as a pattern over a padded folded text; the space after it is looked ahead at, so that counting matches finds neighbours. */
export function textPattern(term: FoldedTerm): string {
  if (term.kind === "phrase") return `${escapeRegex(` ${term.words.join(" ")}`)}(?= )`;
  return term.prefix ? escapeRegex(` ${term.word}`) : `${escapeRegex(` ${term.word}`)}(?= )`;
}

const TITLE_WEIGHT = 10;
const occurrences = (field: string, regex: string) => ({ $size: { $regexFindAll: { input: field, regex } } });

function termFilter(term: FoldedTerm, titleOnly: boolean): Record<string, unknown> {
  const pattern = textPattern(term);
  // The words index still chooses the candidates; the title pattern only tests them.
  const inTitle = titleOnly ? { titleText: { $regex: pattern } } : {};
  if (term.kind === "word") return { words: term.prefix ? { $regex: `^${escapeRegex(term.word)}` } : term.word, ...inTitle };
  return { words: { $all: term.words }, ...(titleOnly ? inTitle : { $or: [{ titleText: { $regex: pattern } }, { bodyText: { $regex: pattern } }] }) };
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

const hitSchema = z.object({ inTitle: z.boolean(), markdown: z.string(), title: z.string() });

export async function searchPages(pages: Collection<PageDoc>, query: SearchQuery): Promise<SearchHit[]> {
  const terms = query.terms.map(fold);
  if (terms.some((term) => (term.kind === "word" ? term.word === "" : term.words.some((word) => word === "")))) return [];
  const filters = query.filters ?? {};
  const titleOnly = filters.titleOnly === true;
  const match = { deleted: false, accessKeys: { $in: visibleKeys(query.visibleTo) }, $and: [...terms.map((term) => termFilter(term, titleOnly)), ...filterConditions(filters)] };
  const inTitle = { $and: terms.map((term) => ({ $regexMatch: { input: "$titleText", regex: textPattern(term) } })) };
  const score = {
    $add: terms.flatMap((term) => [{ $multiply: [TITLE_WEIGHT, occurrences("$titleText", textPattern(term))] }, occurrences("$bodyText", textPattern(term))]),
  };
  const docs = await pages
    .aggregate([
      { $match: match },
      { $addFields: { inTitle, score } },
      { $sort: { inTitle: -1, score: -1, _id: 1 } },
      { $skip: query.offset },
      { $limit: query.limit + 1 },
      { $project: { titleText: 0, bodyText: 0, words: 0, accessKeys: 0, score: 0 } },
    ], { allowDiskUse: true })
    .toArray();
  return docs.map((doc) => {
    const hit = hitSchema.parse(doc);
    const snippet = (titleOnly ? null : snippetOf(hit.markdown, query.terms)) ?? snippetOf(hit.title, query.terms) ?? [{ text: hit.title, marked: false }];
    return { page: toPageRecord(doc), inTitle: hit.inTitle, snippet };
  });
}
