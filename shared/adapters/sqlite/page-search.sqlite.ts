// Full-text search of pages in SQLite: an FTS5 table kept in step by the pages writer. Each page is one row of
// three columns: `scope` (tokens naming its owner, itself and every folder above it), `title` and `body`
// (NFKC text; the unicode61 tokenizer folds case and diacritics). The caller's visibility becomes part of the
// MATCH expression (`scope : (owner OR folder OR page tokens)`), so FTS5 intersects it inside the index: a page
// the caller cannot see is never read, ranked, counted or quoted. Every indexed word also carries its
// workspace's key as a prefix (`q<12 hex of the owner>word`), and a query asks only for the keys of workspaces
// the caller can reach at all: the words of other workspaces are other tokens, so how often a word occurs
// there costs the query nothing (no timing difference between such a hit and a miss).
// Filters narrow the same statement: a folder or an owner is one more scope token in the MATCH (the tokens
// every page already carries), `in=title` the column filter, an updated range a condition on the page's row,
// tested only on the rows the visible MATCH returns. The ranking statement runs where the store is told
// (page-search-rank.ts: in the server, a task of the worker pool), the records of the hits here.
import type Database from "better-sqlite3";
import {
  SEARCH_WORD,
  searchText,
  snippetOf,
  type SearchHit,
  type SearchQuery,
  type SearchTerm,
} from "../../pages/page-search.ts";
import type { VisibleTo } from "../../read-store/list-query.ts";
import { decodeIds } from "./id-list.ts";
import { rankOn, type SearchRanking } from "./page-search-rank.ts";
import { toPageRecord, type PageRow } from "./page-row.ts";
import type { SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS page_search_docs (
  doc INTEGER PRIMARY KEY,
  page_id TEXT NOT NULL UNIQUE
);
CREATE VIRTUAL TABLE IF NOT EXISTS page_search USING fts5(scope, title, body, content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2');`;
/**
 * Every batch adds a segment to the FTS5 index and FTS5 merges them by levels, so a store written batch by batch
 * holds a dozen or more segments, and each term of a query is looked up in each. A rebuild ends with the index
 * merged into one (three to five times faster queries in the benchmark's search rows).
 */
export const pageSearchModel: SqliteModel = {
  schema,
  tables: ["page_search_docs", "page_search"],
  queryIndexes: [],
  afterRebuild: "INSERT INTO page_search (page_search) VALUES ('optimize')",
};

/** The workspace key every indexed word of that owner's pages starts with (letters and digits: one token). */
const keyOf = (ownerId: string): string => `q${ownerId.replace(/-/g, "").slice(0, 12).toLowerCase()}`;
// A replacement pattern rather than a function: V8 then builds the string without a call per word (about a
// third faster on a 10 KB page). A key is letters and digits, so it holds no `$`.
const indexable = (text: string, key: string): string => searchText(text).replace(SEARCH_WORD, `${key}$&`);

const token = (kind: "o" | "f" | "p", id: string): string => `${kind}${id.replace(/-/g, "").toLowerCase()}`;

function scopeOf(ownerId: string, pageId: string, ancestorIds: readonly string[]): string {
  return [token("o", ownerId), token("p", pageId), ...ancestorIds.map((id) => token("f", id))].join(" ");
}

const quoted = (text: string): string => `"${text.replace(/"/g, '""')}"`;

/** A term in each visible workspace's keyed words: `("q…plan" OR "q…plan")`. */
function termExpression(term: SearchTerm, keys: readonly string[]): string {
  const one = (key: string) =>
    term.kind === "phrase"
      ? quoted(term.words.map((word) => `${key}${word}`).join(" "))
      : `${quoted(`${key}${term.text}`)}${term.prefix ? " *" : ""}`;
  return `(${keys.map(one).join(" OR ")})`;
}

function visibleExpression(visibleTo: VisibleTo): string {
  const tokens = [
    ...visibleTo.ownerIds.map((id) => token("o", id)),
    ...visibleTo.pageIds.map((id) => token("p", id)),
    ...visibleTo.folderIds.map((id) => token("f", id)),
  ];
  return `scope : (${tokens.join(" OR ")})`;
}

/** Keeps a page's row in the index in step with its listing row and content (same connection, same batch). */
export class SqlitePageIndexer {
  private readonly statements;

  constructor(
    db: Database.Database,
    private readonly enabled: boolean,
    /** Called when a page's entry leaves the index: its words stay in the segments until a merge (idle-index-merge.ts). */
    private readonly onRemoved: () => void = () => undefined,
  ) {
    this.statements = {
      docOf: db.prepare<[string], number>("SELECT doc FROM page_search_docs WHERE page_id = ?").pluck(),
      newDoc: db.prepare<[string], number>("INSERT INTO page_search_docs (page_id) VALUES (?) RETURNING doc").pluck(),
      dropDoc: db.prepare<[string]>("DELETE FROM page_search_docs WHERE page_id = ?"),
      source: db.prepare<[string], { owner_id: string; title: string; ancestor_ids: string; markdown: string }>(
        "SELECT p.owner_id, p.title, p.ancestor_ids, c.markdown FROM pages p JOIN page_contents c ON c.page_id = p.id WHERE p.id = ? AND p.deleted = 0",
      ),
      remove: db.prepare<[number]>("DELETE FROM page_search WHERE rowid = ?"),
      insert: db.prepare<[number, string, string, string]>(
        "INSERT INTO page_search (rowid, scope, title, body) VALUES (?, ?, ?, ?)",
      ),
    };
  }

  /** Writes the page's row from its current listing row and content, or drops it when the page is gone. */
  reindex(pageId: string): void {
    if (!this.enabled) return;
    const doc = this.statements.docOf.get(pageId);
    if (doc !== undefined) this.statements.remove.run(doc);
    const row = this.statements.source.get(pageId);
    if (!row) {
      if (doc !== undefined) this.onRemoved();
      this.statements.dropDoc.run(pageId);
      return;
    }
    const id = doc ?? this.statements.newDoc.get(pageId);
    if (id === undefined) throw new Error(`no search document for page ${pageId}`);
    const key = keyOf(row.owner_id);
    this.statements.insert.run(
      id,
      scopeOf(row.owner_id, pageId, decodeIds(row.ancestor_ids)),
      indexable(row.title, key),
      indexable(row.markdown, key),
    );
  }
}

/** The search half of the pages view: ranking in one statement, then the records and snippets of that page of hits alone. */
export class SqlitePageSearch {
  private readonly statements;
  private readonly snapshot: <T>(read: () => T) => T;
  private readonly rank: SearchRanking;

  /** `ranking`: where the ranking statement runs; by default on this connection (offline tools, adapter tests). */
  constructor(db: Database.Database, ranking?: SearchRanking) {
    this.snapshot = <T>(read: () => T): T => db.transaction(read)();
    const rankHere = rankOn(db);
    this.rank = ranking ?? (async (params) => rankHere(params));
    this.statements = {
      folderOwners: db
        .prepare<[string], string>("SELECT DISTINCT owner_id FROM folders WHERE id IN (SELECT value FROM json_each(?))")
        .pluck(),
      pageOwners: db
        .prepare<[string], string>("SELECT DISTINCT owner_id FROM pages WHERE id IN (SELECT value FROM json_each(?))")
        .pluck(),
      pages: db.prepare<[string], PageRow & { doc: number; markdown: string }>(
        `SELECT d.doc, p.*, c.markdown FROM page_search_docs d JOIN pages p ON p.id = d.page_id JOIN page_contents c ON c.page_id = p.id
         WHERE d.doc IN (SELECT value FROM json_each(?)) AND p.deleted = 0`,
      ),
    };
  }

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const { ownerIds, folderIds, pageIds } = query.visibleTo;
    const filters = query.filters ?? {};
    const visible = visibleExpression(query.visibleTo);
    // The workspaces the caller can reach at all: their own, those they are a member of, and the owners of
    // the folders and pages granted to them. Only these workspaces' keyed words are asked for.
    const owners = this.snapshot(() => [
      ...ownerIds,
      ...this.statements.folderOwners.all(JSON.stringify(folderIds)),
      ...this.statements.pageOwners.all(JSON.stringify(pageIds)),
    ]);
    // An owner the caller cannot reach holds nothing for them, as an unknown one: neither is looked up.
    if (filters.ownerId !== undefined && !owners.includes(filters.ownerId)) return [];
    const keys = [...new Set(owners.map(keyOf))];
    const terms = query.terms.map((term) => termExpression(term, keys)).join(" AND ");
    const narrowed = [
      ...(filters.folderId !== undefined ? [`scope : ${token("f", filters.folderId)}`] : []),
      ...(filters.ownerId !== undefined ? [`scope : ${token("o", filters.ownerId)}`] : []),
    ];
    const match = [`${filters.titleOnly === true ? "title" : "{title body}"} : (${terms})`, visible, ...narrowed].join(
      " AND ",
    );
    // Only a flag on rows the visible MATCH already chose: the scope need not be tested again.
    const titleMatch = `title : (${terms})`;
    const range = { after: filters.updatedAfter ?? null, before: filters.updatedBefore ?? null };
    const ranked = await this.rank({ match, titleMatch, ...range, limit: query.limit + 1, offset: query.offset });
    if (ranked.length === 0) return [];
    // A page that left the index since it was ranked (deleted in between) is left out, as it would be a moment later.
    const rows = new Map(
      this.statements.pages.all(JSON.stringify(ranked.map((hit) => hit.doc))).map((row) => [row.doc, row]),
    );
    return ranked.flatMap((hit): SearchHit[] => {
      const row = rows.get(hit.doc);
      if (!row) return [];
      // The snippet is cut from the stored markdown (the index keeps no text): the body's best match, else the title (the title alone under in=title).
      const snippet = (filters.titleOnly === true ? null : snippetOf(row.markdown, query.terms)) ??
        snippetOf(row.title, query.terms) ?? [{ text: row.title, marked: false }];
      return [{ page: toPageRecord(row), inTitle: hit.inTitle, snippet }];
    });
  }
}
