// Full-text search of pages in SQLite: an FTS5 table kept in step by the pages writer. Each page is one row of
// three columns: `scope` (tokens naming its owner, itself and every folder above it), `title` and `body`
// (NFKC text; the unicode61 tokenizer folds case and diacritics). The caller's visibility becomes part of the
// MATCH expression (`scope : (owner OR folder OR page tokens)`), so FTS5 intersects it inside the index: a page
// the caller cannot see is never read, ranked, counted or quoted.
import type Database from "better-sqlite3";
import { searchText, type SearchHit, type SearchQuery, type SearchTerm, type SnippetPart } from "../../pages/page-search.ts";
import type { PageRecord } from "../../pages/pages.view.ts";
import type { VisibleTo } from "../../read-store/list-query.ts";
import { decodeIds } from "./id-list.ts";
import type { PageRow } from "./pages.view.sqlite.ts";
import type { SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS page_search_docs (
  doc INTEGER PRIMARY KEY,
  page_id TEXT NOT NULL UNIQUE
);
CREATE VIRTUAL TABLE IF NOT EXISTS page_search USING fts5(scope, title, body, tokenize = 'unicode61 remove_diacritics 2');`;
export const pageSearchModel: SqliteModel = { schema, tables: ["page_search_docs", "page_search"], queryIndexes: [] };

/** Private-use characters mark matches in FTS5 snippets; they are taken out of indexed text so only marks are marks. */
const OPEN = "\uE000";
const CLOSE = "\uE001";
const MARKERS = /[\uE000\uE001]/g;
const indexable = (text: string): string => searchText(text).replace(MARKERS, " ");

const token = (kind: "o" | "f" | "p", id: string): string => `${kind}${id.replace(/-/g, "").toLowerCase()}`;

function scopeOf(ownerId: string, pageId: string, ancestorIds: readonly string[]): string {
  return [token("o", ownerId), token("p", pageId), ...ancestorIds.map((id) => token("f", id))].join(" ");
}

const quoted = (text: string): string => `"${text.replace(/"/g, '""')}"`;

function termExpression(term: SearchTerm): string {
  return term.kind === "phrase" ? quoted(term.words.join(" ")) : `${quoted(term.text)}${term.prefix ? " *" : ""}`;
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
  ) {
    this.statements = {
      docOf: db.prepare<[string], number>("SELECT doc FROM page_search_docs WHERE page_id = ?").pluck(),
      newDoc: db.prepare<[string], number>("INSERT INTO page_search_docs (page_id) VALUES (?) RETURNING doc").pluck(),
      dropDoc: db.prepare<[string]>("DELETE FROM page_search_docs WHERE page_id = ?"),
      source: db.prepare<[string], { owner_id: string; title: string; ancestor_ids: string; markdown: string }>(
        "SELECT p.owner_id, p.title, p.ancestor_ids, c.markdown FROM pages p JOIN page_contents c ON c.page_id = p.id WHERE p.id = ? AND p.deleted = 0",
      ),
      remove: db.prepare<[number]>("DELETE FROM page_search WHERE rowid = ?"),
      insert: db.prepare<[number, string, string, string]>("INSERT INTO page_search (rowid, scope, title, body) VALUES (?, ?, ?, ?)"),
    };
  }

  /** Writes the page's row from its current listing row and content, or drops it when the page is gone. */
  reindex(pageId: string): void {
    if (!this.enabled) return;
    const doc = this.statements.docOf.get(pageId);
    if (doc !== undefined) this.statements.remove.run(doc);
    const row = this.statements.source.get(pageId);
    if (!row) {
      this.statements.dropDoc.run(pageId);
      return;
    }
    const id = doc ?? this.statements.newDoc.get(pageId);
    if (id === undefined) throw new Error(`no search document for page ${pageId}`);
    this.statements.insert.run(id, scopeOf(row.owner_id, pageId, decodeIds(row.ancestor_ids)), indexable(row.title), indexable(row.markdown));
  }
}

function snippetParts(text: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  for (const [index, piece] of text.split(OPEN).entries()) {
    const [marked, rest] = index === 0 ? [null, piece] : splitOnce(piece);
    if (marked !== null && marked !== "") parts.push({ text: marked, marked: true });
    if (rest !== "") parts.push({ text: rest, marked: false });
  }
  return parts;
}

function splitOnce(piece: string): [string, string] {
  const at = piece.indexOf(CLOSE);
  return at === -1 ? [piece, ""] : [piece.slice(0, at), piece.slice(at + 1)];
}

type Ranked = { doc: number; in_title: number };

/** The search half of the pages view: ranking in one statement, then records and snippets of that page alone. */
export class SqlitePageSearch {
  private readonly statements;
  private readonly snapshot: <T>(read: () => T) => T;

  constructor(
    db: Database.Database,
    private readonly toRecord: (row: PageRow) => PageRecord,
  ) {
    this.snapshot = <T>(read: () => T): T => db.transaction(read)();
    this.statements = {
      ranked: db.prepare<[{ match: string; titleMatch: string; limit: number; offset: number }], Ranked>(
        `SELECT rowid AS doc, rowid IN (SELECT rowid FROM page_search WHERE page_search MATCH @titleMatch) AS in_title
         FROM page_search WHERE page_search MATCH @match
         ORDER BY in_title DESC, bm25(page_search, 0.0, 10.0, 1.0), rowid LIMIT CAST(@limit AS INTEGER) OFFSET CAST(@offset AS INTEGER)`,
      ),
      pages: db.prepare<[string], PageRow & { doc: number }>(
        "SELECT d.doc, p.* FROM page_search_docs d JOIN pages p ON p.id = d.page_id WHERE d.doc IN (SELECT value FROM json_each(?)) AND p.deleted = 0",
      ),
      snippets: db.prepare<[{ match: string; docs: string }], { doc: number; title: string; body: string }>(
        `SELECT rowid AS doc, snippet(page_search, 1, '${OPEN}', '${CLOSE}', '…', 12) AS title, snippet(page_search, 2, '${OPEN}', '${CLOSE}', '…', 24) AS body
         FROM page_search WHERE page_search MATCH @match AND rowid IN (SELECT value FROM json_each(@docs))`,
      ),
    };
  }

  search(query: SearchQuery): SearchHit[] {
    const terms = query.terms.map(termExpression).join(" AND ");
    const visible = visibleExpression(query.visibleTo);
    const match = `{title body} : (${terms}) AND ${visible}`;
    const titleMatch = `title : (${terms}) AND ${visible}`;
    return this.snapshot(() => {
      const ranked = this.statements.ranked.all({ match, titleMatch, limit: query.limit + 1, offset: query.offset });
      if (ranked.length === 0) return [];
      const docs = JSON.stringify(ranked.map((hit) => hit.doc));
      const records = new Map<number, PageRecord>();
      for (const row of this.statements.pages.all(docs)) records.set(row.doc, this.toRecord(row));
      const snippets = new Map(this.statements.snippets.all({ match, docs }).map((row) => [row.doc, row]));
      return ranked.flatMap((hit): SearchHit[] => {
        const page = records.get(hit.doc);
        const snippet = snippets.get(hit.doc);
        if (!page || !snippet) return [];
        const text = snippet.body.includes(OPEN) ? snippet.body : snippet.title;
        return [{ page, inTitle: hit.in_title === 1, snippet: snippetParts(text) }];
      });
    });
  }
}
