// The in-process limit of each read: the raw SQLite query producing the same answer as the route,
// run in this process over the seeded read models without HTTP, authentication or serialisation. For search,
// the read model's own FTS5 match and ranking (the rows and snippets of the hits included), without HTTP.
import Database from "better-sqlite3";
import { join } from "node:path";
import { SqliteReadStore } from "../shared/adapters/sqlite/sqlite.read-store.ts";
import { visibilityFilter } from "../shared/access/effective-permission.ts";
import { parseSearch } from "../shared/pages/page-search.ts";
import type { VisibleTo } from "../shared/read-store/list-query.ts";

export interface InProcessLimits {
  readonly list: number;
  readonly resolve: number;
  readonly content: number;
  readonly searchWord: number;
  readonly searchPhrase: number;
}

/** Calls per second of `work`, run back to back for `ms` after a short warm-up. */
async function rate(ms: number, work: () => unknown): Promise<number> {
  for (let i = 0; i < 50; i += 1) await work();
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < ms) {
    await work();
    calls += 1;
  }
  return calls / ((performance.now() - started) / 1000);
}

const list = (n: number) => Array.from({ length: n }, () => "?").join(", ");

/**
 * The 51 newest visible pages: each source's newest 51 from its index, merged, then the winners' rows
 * (CROSS JOIN keeps SQLite from scanning pages and probing the winners instead).
 */
function listSql(visibleTo: VisibleTo): { sql: string; params: string[] } {
  const sources = [
    ...visibleTo.ownerIds.map(
      () =>
        "SELECT * FROM (SELECT id, updated_pos FROM pages WHERE owner_id = ? AND deleted = 0 ORDER BY updated_pos DESC, id DESC LIMIT 51)",
    ),
    ...visibleTo.folderIds.map(
      () =>
        "SELECT * FROM (SELECT page_id AS id, updated_pos FROM page_ancestors WHERE folder_id = ? ORDER BY updated_pos DESC, page_id DESC LIMIT 51)",
    ),
    ...(visibleTo.pageIds.length > 0
      ? [`SELECT id, updated_pos FROM pages WHERE id IN (${list(visibleTo.pageIds.length)}) AND deleted = 0`]
      : []),
  ];
  const sql = `WITH candidates AS (${sources.join(" UNION ALL ")}),
    winners AS (SELECT DISTINCT id, updated_pos FROM candidates ORDER BY updated_pos DESC, id DESC LIMIT 51)
    SELECT p.* FROM winners w CROSS JOIN pages p ON p.id = w.id ORDER BY w.updated_pos DESC, w.id DESC`;
  return { sql, params: [...visibleTo.ownerIds, ...visibleTo.folderIds, ...visibleTo.pageIds] };
}

function resolveSql(visibleTo: VisibleTo): { sql: string; params: string[] } {
  const sql = `SELECT p.* FROM pages p WHERE p.title_key = ? AND p.deleted = 0 AND (p.owner_id IN (${list(visibleTo.ownerIds.length)})
    OR p.id IN (${list(visibleTo.pageIds.length)})
    OR EXISTS (SELECT 1 FROM page_ancestors a WHERE a.page_id = p.id AND a.folder_id IN (${list(visibleTo.folderIds.length)})))
    ORDER BY p.updated_pos DESC LIMIT 51`;
  return { sql, params: [...visibleTo.ownerIds, ...visibleTo.pageIds, ...visibleTo.folderIds] };
}

export async function measureInProcessLimits(options: {
  dataDir: string;
  readerId: string;
  title: string;
  contentPageId: string;
  word: string;
  phrase: string;
  ms: number;
}): Promise<InProcessLimits> {
  const file = join(options.dataDir, "read-models.sqlite");
  const store = new SqliteReadStore(file);
  const db = new Database(file, { readonly: true });
  try {
    const visibleTo = visibilityFilter(await store.access.contextFor(options.readerId));
    const listQuery = listSql(visibleTo);
    const listStatement = db.prepare(listQuery.sql);
    const resolveQuery = resolveSql(visibleTo);
    const resolveStatement = db.prepare(resolveQuery.sql);
    const contentStatement = db.prepare(
      "SELECT p.*, c.markdown FROM pages p JOIN page_contents c ON c.page_id = p.id WHERE p.id = ? AND p.deleted = 0",
    );
    const search = (q: string) => {
      const terms = parseSearch(q);
      return () => store.pages.search({ terms, visibleTo, offset: 0, limit: 20 });
    };
    const titleKey = options.title.trim().toLowerCase();
    return {
      list: await rate(options.ms, () => listStatement.all(...listQuery.params)),
      resolve: await rate(options.ms, () => resolveStatement.all(titleKey, ...resolveQuery.params)),
      content: await rate(options.ms, () => contentStatement.get(options.contentPageId)),
      searchWord: await rate(options.ms, search(options.word)),
      searchPhrase: await rate(options.ms, search(`"${options.phrase}"`)),
    };
  } finally {
    db.close();
    await store.close();
  }
}
