// Ranking variants of one search, side by side over one FTS5 index shaped like the benchmark's workspace (keyed
// words, scope tokens, 1 page in 50 holding the selective word): each variant's rate and whether its order is
// the shipped statement's. `npx tsx bench/search-ranking.ts [pages] [ms per variant] [variants: a regular expression]`.
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { SEARCH_WORD, searchText } from "../shared/pages/page-search.ts";

const pages = Number(process.argv[2] ?? 100_000);
const ms = Number(process.argv[3] ?? 2_000);
const PARAGRAPH =
  "The quarterly plan covers hiring, the storage migration and the new onboarding flow. Each team lists its goals, owners and risks, " +
  "and links the pages where the details live. Decisions are recorded with their date and the people who made them.\n\n";

const hex = (id: string) => id.replace(/-/g, "").toLowerCase();
const keyOf = (owner: string) => `q${hex(owner).slice(0, 12)}`;
const indexable = (text: string, key: string) => searchText(text).replace(SEARCH_WORD, `${key}$&`);

const db = new Database(join(mkdtempSync(join(tmpdir(), "search-ranking-")), "read.sqlite"));
db.pragma("journal_mode = WAL");
db.exec(`CREATE VIRTUAL TABLE page_search USING fts5(scope, title, body, content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2')`);
const owners = Array.from({ length: 30 }, () => randomUUID());
const folders = owners.map(() => Array.from({ length: 45 }, () => randomUUID()));
let state = 42;
const next = () => {
  state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
  return state / 2_147_483_648;
};
db.exec("CREATE TABLE page_scope (doc INTEGER NOT NULL, token TEXT NOT NULL, PRIMARY KEY (doc, token)) WITHOUT ROWID");
const scoped = db.prepare("INSERT INTO page_scope (doc, token) VALUES (?, ?)");
const insert = db.prepare("INSERT INTO page_search (rowid, scope, title, body) VALUES (?, ?, ?, ?)");
let hiddenSeen = 0;
db.transaction(() => {
  for (let i = 0; i < pages; i += 1) {
    const o = i % 30;
    const owner = owners[o] ?? "";
    const tree = folders[o] ?? [];
    const f = next() < 0.1 ? -1 : Math.floor(next() * 45);
    // Folder i of a tree of 15: its ancestors are the top (0) and the chain above it, enough for the scope's shape.
    const ancestors = f < 0 ? [] : [tree[Math.floor(f / 15) * 15] ?? "", tree[f] ?? ""];
    const size = 1_024 + Math.floor(next() * 3_072);
    const title = i === 3 ? "Zeppelin plan" : `Quarterly plan ${i}`;
    // Owner 5's pages outside its first tree are invisible to the reader although its workspace is reachable:
    // "narwhal" in the first 20 of them, "walrus" in every one.
    const hidden = o === 5 && (f < 0 || f >= 15);
    if (hidden) hiddenSeen += 1;
    const extra =
      `${i === 20 ? "unicorn " : ""}${i % 50 === 0 ? "Notes on the zeppelin rollout. " : ""}${o === 29 ? "The quokka survey. " : ""}` +
      `${hidden && hiddenSeen <= 20 ? "The narwhal tusk. " : ""}${hidden ? "A walrus. " : ""}`;
    const body = `# ${title}\n\n${extra}${PARAGRAPH.repeat(Math.ceil(size / PARAGRAPH.length)).slice(0, size)}`;
    const scope = [`o${hex(owner)}`, `p${hex(randomUUID())}`, ...new Set(ancestors.map((a) => `f${hex(a)}`))].join(" ");
    for (const token of scope.split(" ")) scoped.run(i + 1, token);
    insert.run(i + 1, scope, indexable(title, keyOf(owner)), indexable(body, keyOf(owner)));
  }
})();
db.exec("INSERT INTO page_search (page_search) VALUES ('optimize')");
db.exec("CREATE INDEX page_scope_token ON page_scope (token, doc)");

// The reader: members of owners 20–22, granted the first top-level tree of owners 0–19.
const reachable = owners.slice(0, 23);
const scopeTokens = [
  ...owners.slice(20, 23).map((o) => `o${hex(o)}`),
  ...folders.slice(0, 20).map((tree) => `f${hex(tree[0] ?? "")}`),
];
const visible = `scope : (${scopeTokens.join(" OR ")})`;
// The reader's listing by audience, as page_audience holds it: the pages granted to them (not those of the
// workspaces they are a member of, whose pages the owner token names).
const memberTokens = owners.slice(20, 23).map((o) => `o${hex(o)}`);
const inList = (tokens: readonly string[]) => tokens.map((t) => `'${t}'`).join(", ");
db.exec(
  "CREATE TABLE audience (user_id TEXT NOT NULL, doc INTEGER NOT NULL, PRIMARY KEY (user_id, doc)) WITHOUT ROWID",
);
db.exec(
  `INSERT INTO audience SELECT DISTINCT 'reader', doc FROM page_scope WHERE token IN (${inList(scopeTokens.filter((t) => t.startsWith("f")))})`,
);
const term = (word: string) => `(${reachable.map((o) => `"${keyOf(o)}${word}"`).join(" OR ")})`;
const phrase = (words: string[]) =>
  `(${reachable.map((o) => `"${words.map((w) => `${keyOf(o)}${w}`).join(" ")}"`).join(" OR ")})`;

interface Variant {
  readonly name: string;
  readonly run: (terms: string) => number[];
}
const shipped = db.prepare(`SELECT rowid AS doc FROM page_search WHERE page_search MATCH @match
  ORDER BY rowid IN (SELECT rowid FROM page_search WHERE page_search MATCH @titleMatch) DESC, bm25(page_search, 0.0, 10.0, 1.0), rowid LIMIT 21`);
const bm25Only = db.prepare(
  `SELECT rowid AS doc FROM page_search WHERE page_search MATCH @match ORDER BY bm25(page_search, 0.0, 10.0, 1.0), rowid LIMIT 21`,
);
const rankOnly = db.prepare(
  `SELECT rowid AS doc FROM page_search WHERE page_search MATCH @match ORDER BY rank LIMIT 21`,
);
const rankThenRowid = db.prepare(
  `SELECT rowid AS doc FROM page_search WHERE page_search MATCH @match ORDER BY rank, rowid LIMIT 21`,
);
const countOnly = db.prepare(`SELECT count(*) FROM page_search WHERE page_search MATCH @match`).pluck();
const rankLimit = db.prepare(
  `SELECT rowid AS doc, rank FROM page_search WHERE page_search MATCH @match ORDER BY rank LIMIT CAST(@limit AS INTEGER)`,
);
const perRow = db.prepare(
  `SELECT rowid AS doc FROM page_search WHERE page_search MATCH @terms AND EXISTS (SELECT 1 FROM page_scope
    WHERE page_scope.doc = page_search.rowid AND +token IN (${scopeTokens.map((t) => `'${t}'`).join(", ")}))
  ORDER BY bm25(page_search, 0.0, 10.0, 1.0), rowid LIMIT 21`,
);
const perRowTitled = db.prepare(
  `SELECT rowid AS doc FROM page_search WHERE page_search MATCH @terms AND EXISTS (SELECT 1 FROM page_scope
    WHERE page_scope.doc = page_search.rowid AND +token IN (${scopeTokens.map((t) => `'${t}'`).join(", ")}))
  ORDER BY rowid IN (SELECT rowid FROM page_search WHERE page_search MATCH @titleMatch) DESC, bm25(page_search, 0.0, 10.0, 1.0), rowid LIMIT 21`,
);
const rankInQuery = db.prepare(
  `SELECT rowid AS doc FROM page_search WHERE page_search MATCH @match AND rank MATCH 'bm25(0.0, 10.0, 1.0)' ORDER BY rank, rowid LIMIT 21`,
);
// Visibility of one hit as the product could check it: the owner token of a workspace the reader is a member of,
// or a row of the reader's listing by audience.
const VISIBLE_BY_AUDIENCE = `(EXISTS (SELECT 1 FROM page_scope WHERE page_scope.doc = page_search.rowid AND +token IN (${inList(memberTokens)}))
  OR EXISTS (SELECT 1 FROM audience WHERE user_id = 'reader' AND audience.doc = page_search.rowid))`;
const ORDER = `ORDER BY rowid IN (SELECT rowid FROM page_search WHERE page_search MATCH @titleMatch) DESC, bm25(page_search, 0.0, 10.0, 1.0), rowid LIMIT 21`;
const perRowAudience = db.prepare(
  `SELECT rowid AS doc FROM page_search WHERE page_search MATCH @terms AND ${VISIBLE_BY_AUDIENCE} ${ORDER}`,
);
// The visible documents as a set built first (an ephemeral index), each hit of the terms alone probed in it.
const inVisibleScope = db.prepare(`SELECT rowid AS doc FROM page_search WHERE page_search MATCH @terms
  AND +rowid IN (SELECT doc FROM page_scope WHERE token IN (${inList(scopeTokens)})) ${ORDER}`);
const inVisibleAudience = db.prepare(`SELECT rowid AS doc FROM page_search WHERE page_search MATCH @terms
  AND +rowid IN (SELECT doc FROM page_scope WHERE token IN (${inList(memberTokens)}) UNION ALL SELECT doc FROM audience WHERE user_id = 'reader') ${ORDER}`);
// The hits of the terms alone in the reachable workspaces, counted up to a bound (the bound + 1 read at most).
const hitsUpTo = (bound: number) =>
  db
    .prepare(`SELECT count(*) FROM (SELECT 1 FROM page_search WHERE page_search MATCH @terms LIMIT ${bound + 1})`)
    .pluck();
const hitsUpTo64 = hitsUpTo(64);
const hitsUpTo256 = hitsUpTo(256);
const hitsUpTo1024 = hitsUpTo(1_024);
const hitsUpTo4096 = hitsUpTo(4_096);
const byTerms = (t: string) => ({ terms: `{title body} : ${t}`, titleMatch: `title : ${t}` });
const rareThenShipped =
  (counter: Database.Statement, bound: number, perHit: Database.Statement) =>
  (t: string): number[] =>
    (counter.get({ terms: `{title body} : ${t}` }) as number) <= bound
      ? perHit.all(byTerms(t)).map(docOf)
      : shipped.all(params(t)).map(docOf);
// The visible hits counted up to a bound with the shipped MATCH, unranked (FTS5 intersects the visibility, as
// it does for the shipped statement); when no more than the bound, those documents ranked by the terms alone.
const visibleUpTo = (bound: number) =>
  db.prepare(`SELECT rowid FROM page_search WHERE page_search MATCH @match LIMIT ${bound + 1}`).pluck();
const visibleUpTo64 = visibleUpTo(64);
const visibleUpTo256 = visibleUpTo(256);
const rankDocs = db.prepare(`SELECT rowid AS doc FROM page_search WHERE page_search MATCH @terms
  AND +rowid IN (SELECT value FROM json_each(@docs)) ${ORDER}`);
const visibleFewThenShipped =
  (counter: Database.Statement, bound: number) =>
  (t: string): number[] => {
    const docs = counter.all({ match: params(t).match }) as number[];
    if (docs.length === 0) return [];
    return docs.length <= bound
      ? rankDocs.all({ ...byTerms(t), docs: JSON.stringify(docs) }).map(docOf)
      : shipped.all(params(t)).map(docOf);
  };
const titleHit = db.prepare(`SELECT 1 FROM page_search WHERE page_search MATCH @match LIMIT 1`);
const count = db.prepare(`SELECT count(*) FROM page_search WHERE page_search MATCH @match`).pluck();

const variants: Variant[] = [
  { name: "shipped: in_title, bm25, rowid", run: (t) => shipped.all(params(t)).map(docOf) },
  { name: "bm25 expression, rowid (no title flag)", run: (t) => bm25Only.all(params(t)).map(docOf) },
  { name: "rank column alone", run: (t) => rankOnly.all(params(t)).map(docOf) },
  { name: "rank column, rowid", run: (t) => rankThenRowid.all(params(t)).map(docOf) },
  { name: "rank MATCH in the query, rank, rowid", run: (t) => rankInQuery.all(params(t)).map(docOf) },
  {
    name: "title hit? (LIMIT 1) then rank, rowid",
    run: (t) => {
      const p = params(t);
      return titleHit.get({ match: `${p.match} AND ${p.titleMatch}` }) === undefined
        ? rankThenRowid.all(p).map(docOf)
        : shipped.all(p).map(docOf);
    },
  },
  {
    name: "title pass by rank, then body pass by rank",
    run: (t) => {
      const p = params(t);
      const inTitle = rankLimit.all({ match: `title : ${t} AND ${visible}`, limit: 21 }).map(docOf);
      if (inTitle.length >= 21) return inTitle;
      const skip = new Set(inTitle);
      const titleCount = inTitle.length;
      const rest = rankLimit.all({ match: `${p.match} NOT title : ${t}`, limit: 21 - titleCount }).map(docOf);
      return [...inTitle, ...rest.filter((d) => !skip.has(d))].slice(0, 21);
    },
  },
  {
    name: "terms-only MATCH, bm25, visibility per row (table)",
    run: (t) => perRow.all({ terms: `{title body} : ${t}` }).map(docOf),
  },
  {
    name: "in_title, bm25, rowid; visibility per row (table)",
    run: (t) => perRowTitled.all({ terms: `{title body} : ${t}`, titleMatch: `title : ${t}` }).map(docOf),
  },
  {
    name: "(a) ≤64 hits: per row (scope), else shipped",
    run: rareThenShipped(hitsUpTo64, 64, perRowTitled),
  },
  {
    name: "(a) ≤256 hits: per row (scope), else shipped",
    run: rareThenShipped(hitsUpTo256, 256, perRowTitled),
  },
  {
    name: "(a) ≤1024 hits: per row (scope), else shipped",
    run: rareThenShipped(hitsUpTo1024, 1_024, perRowTitled),
  },
  {
    name: "(a) ≤4096 hits: per row (scope), else shipped",
    run: rareThenShipped(hitsUpTo4096, 4_096, perRowTitled),
  },
  {
    name: "(a) ≤256 hits: per row (audience), else shipped",
    run: rareThenShipped(hitsUpTo256, 256, perRowAudience),
  },
  { name: "per row (owner token + audience), always", run: (t) => perRowAudience.all(byTerms(t)).map(docOf) },
  { name: "(b) terms MATCH, rowid IN visible (scope)", run: (t) => inVisibleScope.all(byTerms(t)).map(docOf) },
  { name: "(b) terms MATCH, rowid IN visible (audience)", run: (t) => inVisibleAudience.all(byTerms(t)).map(docOf) },
  { name: "(a') ≤64 visible: rank those by terms, else shipped", run: visibleFewThenShipped(visibleUpTo64, 64) },
  { name: "(a') ≤256 visible: rank those by terms, else shipped", run: visibleFewThenShipped(visibleUpTo256, 256) },
  {
    name: "(a) its bounded count alone (≤64)",
    run: (t) => [hitsUpTo64.get({ terms: `{title body} : ${t}` }) as number],
  },
  {
    name: "(a) its bounded count alone (≤256)",
    run: (t) => [hitsUpTo256.get({ terms: `{title body} : ${t}` }) as number],
  },
  { name: "count of the visibility MATCH alone", run: () => [countOnly.get({ match: visible }) as number] },
  { name: "count of matches only (no ranking)", run: (t) => [countOnly.get(params(t)) as number] },
];
function params(terms: string) {
  return { match: `{title body} : ${terms} AND ${visible}`, titleMatch: `title : ${terms}` };
}
function docOf(row: unknown): number {
  return (row as { doc: number }).doc;
}

db.exec("INSERT INTO page_search (page_search, rank) VALUES ('rank', 'bm25(0.0, 10.0, 1.0)')");
const queries: Array<[string, string]> = [
  ["one word (1 page in 50)", term("zeppelin")],
  ["word in one page", term("unicorn")],
  ["word in every title", term("plan")],
  ["phrase", phrase(["zeppelin", "rollout"])],
  ["common word (every page)", term("storage")],
  ["word only in invisible pages", term("quokka")],
  ["word in 20 invisible pages of a reachable workspace", term("narwhal")],
  ["word in every invisible page of a reachable workspace", term("walrus")],
  ["word in no page", term("xylograph")],
];
const only = process.argv[4] === undefined ? null : new RegExp(process.argv[4]);
const chosen = variants.filter((variant, index) => index === 0 || only === null || only.test(variant.name));
const ROUNDS = 3;
for (const [label, t] of queries) {
  console.log(`\n${label}: ${count.get(params(t)) as number} visible matches`);
  const expected = JSON.stringify(chosen[0]?.run(t));
  const best = chosen.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < ROUNDS; round += 1)
    for (const [i, variant] of chosen.entries()) {
      let n = 0;
      const started = performance.now();
      while (performance.now() - started < ms / ROUNDS) {
        variant.run(t);
        n += 1;
      }
      best[i] = Math.min(best[i] ?? Number.POSITIVE_INFINITY, (performance.now() - started) / n);
    }
  for (const [i, variant] of chosen.entries()) {
    const same = JSON.stringify(variant.run(t)) === expected;
    const per = best[i] ?? 0;
    const ratio = per / (best[0] ?? 1);
    console.log(
      `  ${variant.name.padEnd(52)} ${per.toFixed(2).padStart(8)} ms ${ratio.toFixed(2).padStart(6)}×  ${same ? "same order" : "other order"}`,
    );
  }
}
