// The main table's HTTP rows: the reads and the write of the served workspace under load, each beside the bare
// ceiling, the same-bytes ceiling and the in-process limit measured in the same minutes, then the split mode's
// reads through nginx. The server is stopped at the end; what later rows need of these figures is returned.
import { measureSameBytes } from "../fair-ceilings.ts";
import { fairRow } from "../fair-rows.ts";
import { failedText, type LoadFigures } from "../http-load.ts";
import { measureInProcessLimits } from "../in-process-limits.ts";
import { startChild, type Child } from "../processes.ts";
import { fmt, type Row } from "../report.ts";
import { SEARCH_WORDS } from "../seed.ts";
import { benchSplitReads } from "../split.ts";
import type { ServedWorkspace } from "./served-workspace.ts";
import { loadRunner, type TableRun } from "./table-run.ts";

export interface HttpFigures {
  readonly ceiling: LoadFigures;
  readonly readAt: LoadFigures;
  /** The readAt row with its references, added by the history rows. */
  readonly readAtRow: (figure: string) => Row;
  readonly memory: ReturnType<Child["memory"]>;
}

export async function httpRows(run: TableRun, served: ServedWorkspace): Promise<HttpFigures> {
  const { options, log, rows, raw } = run;
  const { seeded, revised, server, api, grantsApplied, readerCookie, ownerCookie } = served;
  const load = loadRunner(run);
  const ceiling = await startChild("bench/ceiling-server.ts", {}, "/constant");
  const ceilingFigures = await load("ceiling", `${ceiling.url}/constant`);
  await ceiling.stop();
  // In the same minutes as the HTTP rows, while the server is idle: the machine's speed drifts over a run.
  log("in-process limits: the raw queries behind the reads, with the server idle");
  const inProcess = await measureInProcessLimits({
    dataDir: run.dataDir,
    readerId: seeded.reader.id,
    title: seeded.sampleTitle,
    contentPageId: seeded.tenKilobytePageId,
    word: SEARCH_WORDS.selective,
    phrase: SEARCH_WORDS.phrase,
    ms: Math.min(3_000, options.duration * 400),
  });
  const headers = { cookie: readerCookie };
  const list = await load("GET /pages?limit=50", `${api}/pages?limit=50`, { headers });
  const resolve = await load(
    "GET /pages/resolve",
    `${api}/pages/resolve?title=${encodeURIComponent(seeded.sampleTitle)}`,
    { headers },
  );
  const searchFor = (q: string) => `${api}/search?q=${encodeURIComponent(q)}&limit=20`;
  const searchWord = await load("GET /search one word", searchFor(SEARCH_WORDS.selective), { headers });
  const searchPhrase = await load("GET /search phrase", searchFor(`"${SEARCH_WORDS.phrase}"`), { headers });
  const searchInvisible = await load(
    "GET /search, a word only in pages the reader cannot see",
    searchFor(SEARCH_WORDS.onlyInvisible),
    { headers },
  );
  const searchMiss = await load("GET /search, a word in no page", searchFor(SEARCH_WORDS.absent), { headers });
  const content = await load("GET /pages/{id}/content", `${api}/pages/${seeded.tenKilobytePageId}/content`, {
    headers: { cookie: ownerCookie },
  });
  const create = await load("POST /pages", `${api}/pages`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ title: "Benchmark page", markdown: "# Benchmark\n\nWritten under load." }),
  });
  const readAt = await load(
    "GET /pages/{id}?at= (1,000 revisions)",
    `${api}/pages/${revised.pageId}?at=${revised.midPosition}`,
    { headers: { cookie: ownerCookie } },
  );
  const memory = server.memory();
  const createBody = JSON.stringify({ title: "Benchmark page", markdown: "# Benchmark\n\nWritten under load." });
  const sameBytes = await measureSameBytes(
    run.workDir,
    [
      { name: "list", url: `${api}/pages?limit=50`, headers },
      { name: "resolve", url: `${api}/pages/resolve?title=${encodeURIComponent(seeded.sampleTitle)}`, headers },
      { name: "content", url: `${api}/pages/${seeded.tenKilobytePageId}/content`, headers: { cookie: ownerCookie } },
      {
        name: "create",
        url: `${api}/pages`,
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: createBody,
      },
      { name: "searchWord", url: searchFor(SEARCH_WORDS.selective), headers },
      { name: "searchPhrase", url: searchFor(`"${SEARCH_WORDS.phrase}"`), headers },
      {
        name: "readAt",
        url: `${api}/pages/${revised.pageId}?at=${revised.midPosition}`,
        headers: { cookie: ownerCookie },
      },
    ],
    load,
  );
  await server.stop();

  raw.http = {
    ceiling: ceilingFigures,
    list,
    resolve,
    content,
    create,
    readAt,
    memory,
    grantsApplied,
    searchWord,
    searchPhrase,
    searchInvisible,
    searchMiss,
    sameBytes,
    inProcess,
  };

  const split = await benchSplitReads({
    env: { DATA_DIR: run.dataDir, AUTH_SESSION_SECRET: run.secret, LOG_LEVEL: "warn" },
    run: (label, url, headers) => load(label, url, { headers }),
    resolvePath: `/api/v1/pages/resolve?title=${encodeURIComponent(seeded.sampleTitle)}`,
    resolveHeaders: headers,
    contentPath: `/api/v1/pages/${seeded.tenKilobytePageId}/content`,
    contentHeaders: { cookie: ownerCookie },
  });
  raw.split = split;

  const ceil = ceilingFigures.requestsPerSecond;
  const refs = (name: keyof typeof sameBytes, inProcessPerSecond?: number) => ({
    ceiling: ceilingFigures,
    ...(sameBytes[name] ? { sameBytes: sameBytes[name] } : {}),
    ...(inProcessPerSecond ? { inProcessPerSecond } : {}),
  });
  // Search's p99 target is set at 100,000 pages; smaller runs report theirs.
  const searchP99 = options.pages >= 100_000 ? { maxP99: 50 } : {};
  rows.push(
    fairRow(
      `GET /pages?limit=50 (${fmt(options.pages)} pages, ${grantsApplied} grants)`,
      list,
      refs("list", inProcess.list),
      { sameBytes: 0.5, maxP99: 15 },
    ),
  );
  rows.push(fairRow("GET /pages/resolve", resolve, refs("resolve", inProcess.resolve), { sameBytes: 0.6 }));
  rows.push(
    fairRow("GET /pages/{id}/content (10 KB)", content, refs("content", inProcess.content), { sameBytes: 0.6 }),
  );
  rows.push(fairRow("POST /pages (read-your-writes)", create, refs("create"), { ceiling: 0.1, maxP99: 30 }));
  rows.push(
    fairRow(
      `GET /search one word (${fmt(options.pages)} pages, 1 in 50 match)`,
      searchWord,
      refs("searchWord", inProcess.searchWord),
      { sameBytes: 0.3, inProcess: 0.5, ...searchP99 },
    ),
  );
  rows.push(
    fairRow("GET /search phrase", searchPhrase, refs("searchPhrase", inProcess.searchPhrase), {
      sameBytes: 0.3,
      inProcess: 0.5,
      ...searchP99,
    }),
  );
  rows.push({
    figure: "GET /search: invisible hit against a miss",
    value: `${fmt(searchInvisible.requestsPerSecond)} req/s, p99 ${fmt(searchInvisible.p99Ms)} ms, ${failedText(searchInvisible)} (${SEARCH_WORDS.onlyInvisible}: ${fmt(options.pages / 30)} pages, none visible)`,
    reference: `miss ${fmt(searchMiss.requestsPerSecond)} req/s, p99 ${fmt(searchMiss.p99Ms)} ms`,
    ratio: `${fmt(searchInvisible.requestsPerSecond / searchMiss.requestsPerSecond, 2)}× miss`,
    target: "report",
    verdict: "report",
  });
  const splitRow = (figure: string, f: LoadFigures, allInOne: LoadFigures): Row => ({
    figure,
    value: `${fmt(f.requestsPerSecond)} req/s, p99 ${fmt(f.p99Ms)} ms, ${failedText(f)}`,
    reference: `all-in-one ${fmt(allInOne.requestsPerSecond)}; ceiling ${fmt(ceil)}`,
    ratio: `${fmt(f.requestsPerSecond / allInOne.requestsPerSecond, 2)}× all-in-one`,
    target: "report",
    verdict: "report",
  });
  if (split === null)
    rows.push({
      figure: "split mode through nginx",
      value: "not measured: nginx is not installed",
      reference: "—",
      ratio: "—",
      target: "report",
      verdict: "report",
    });
  for (const s of split ?? []) {
    rows.push(
      splitRow(
        `split via nginx, ${s.queryNodes} query node${s.queryNodes > 1 ? "s" : ""}: GET /pages/resolve`,
        s.resolve,
        resolve,
      ),
    );
    rows.push(
      splitRow(
        `split via nginx, ${s.queryNodes} query node${s.queryNodes > 1 ? "s" : ""}: GET /pages/{id}/content`,
        s.content,
        content,
      ),
    );
  }
  return {
    ceiling: ceilingFigures,
    readAt,
    readAtRow: (figure) => fairRow(figure, readAt, refs("readAt"), { sameBytes: 0.3 }),
    memory,
  };
}
