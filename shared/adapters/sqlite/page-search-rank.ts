// The one statement of a search whose cost grows with the workspace: the FTS5 MATCH of the terms and the caller's
// visibility, ranked by bm25 over every hit. It runs in a thread of the worker pool, over a read-only connection
// of its own to the read models' file, never on the event loop (a 16-word query over a 10,000-page workspace
// ranks every page: most of a second); the process then reads only the records of the page of hits it answers.
import Database from "better-sqlite3";
import { PAGE_CACHE_MB } from "./open-database.ts";

import type { RankedDoc, RankParams } from "../../pages/search-ranking.ts";

/** Where a search's ranking runs: a task of the worker pool (the server), or the read store's own connection. */
export type SearchRanking = (params: RankParams) => Promise<RankedDoc[]>;

const RANK_SQL = `SELECT rowid AS doc, rowid IN (SELECT rowid FROM page_search WHERE page_search MATCH @titleMatch) AS in_title
  FROM page_search WHERE page_search MATCH @match
    AND (@after IS NULL AND @before IS NULL OR EXISTS (SELECT 1 FROM page_search_docs d JOIN pages p ON p.id = d.page_id
      WHERE d.doc = page_search.rowid AND p.updated_at > coalesce(@after, '') AND p.updated_at < coalesce(@before, '~')))
  ORDER BY in_title DESC, bm25(page_search, 0.0, 10.0, 1.0), rowid LIMIT CAST(@limit AS INTEGER) OFFSET CAST(@offset AS INTEGER)`;

/** The ranking on a connection (the read store's, or a worker's): the hits of one page, best first. */
export function rankOn(db: Database.Database): (params: RankParams) => RankedDoc[] {
  const statement = db.prepare<[RankParams], { doc: number; in_title: number }>(RANK_SQL);
  return (params) => statement.all(params).map((row) => ({ doc: row.doc, inTitle: row.in_title === 1 }));
}

/** Connections a worker thread keeps, the last used last: one per read-models file it has ranked in. */
const CONNECTIONS_KEPT = 4;
const connections = new Map<
  string,
  { readonly db: Database.Database; readonly rank: (params: RankParams) => RankedDoc[] }
>();

/**
 * The ranking in a worker thread: a read-only connection to `file` (opened once, kept), which sees the last
 * committed batch as every reader does in WAL mode.
 */
export function rankInFile(file: string, params: RankParams): RankedDoc[] {
  let held = connections.get(file);
  if (!held) {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma("busy_timeout = 5000");
    db.pragma(`cache_size = ${-Math.round(PAGE_CACHE_MB.readModels * 1024)}`);
    held = { db, rank: rankOn(db) };
    for (const [oldest, connection] of connections) {
      if (connections.size < CONNECTIONS_KEPT) break;
      connections.delete(oldest);
      connection.db.close();
    }
  }
  connections.delete(file);
  connections.set(file, held);
  return held.rank(params);
}
