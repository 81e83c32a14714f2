// "event-loop delay p99": how long the server's own event loop waits (perf_hooks.monitorEventLoopDelay, read
// inside the server from /metrics' nodejs_eventloop_lag_p99_seconds) while each heavy workload runs, beside a
// quiet baseline: (a) history reads of a page with 100 content replacements of 2,000 lines, (b) a vault import
// of one note with 20,000 links, (c) 8 concurrent uploads of 10000×9999 RGBA PNGs (with the peak RSS). Every
// workload gets a fresh server, so one's leftovers (or peak memory) never count against another's.
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { withOwnServer } from "./images.ts";
import type { Child } from "./processes.ts";
import { fmt, renderTable, verdict, writeResults, type Row } from "./report.ts";
import { revisionText } from "./worst/fixture/pages.ts";
import { scrapeLoopDelay } from "./worst/probe.ts";

/** The target of every event-loop row (docs/benchmarks.md): the loop never waits 50 ms at the 99th percentile. */
const TARGET_P99_MS = 50;
/** Several ticks of prom-client's 10 ms sampling timer. */
const SETTLE_MS = 200;
/** What (c) must stay under, as the server's peak resident memory. */
const TARGET_UPLOAD_PEAK_MB = 600;

interface LoopDelay {
  /** From prom-client's histogram (10 ms resolution: an idle loop reads about 10 ms). */
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly seconds: number;
}

export interface EventLoopFigures {
  readonly baseline: LoopDelay;
  readonly history: LoopDelay & { readonly reads: number; readonly failed: number };
  readonly vaultImport: LoopDelay & { readonly status: number };
  readonly uploads: LoopDelay & {
    readonly created: number;
    readonly statuses: readonly number[];
    readonly peakMb: number;
  };
}

const json = (cookie: string) => ({ cookie, "content-type": "application/json" });

/**
 * The loop's delay while `work` runs: one scrape resets the histogram, the next reads what `work` caused. The
 * histogram records a block only at the sampling timer's next tick, after the request that blocked has been
 * answered, so the second scrape waits a few ticks: sent at once, it could be served first and miss the block.
 */
async function measured<T>(server: Child, work: () => Promise<T>): Promise<LoopDelay & { result: T }> {
  await scrapeLoopDelay(server);
  const started = performance.now();
  const result = await work();
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const seconds = (performance.now() - started) / 1000;
  return { ...(await scrapeLoopDelay(server)), seconds, result };
}

async function pageWithRevisions(
  server: Child,
  cookie: string,
  revisions: number,
  log: (line: string) => void,
): Promise<string> {
  const api = `${server.url}/api/v1`;
  const created = await fetch(`${api}/pages`, {
    method: "POST",
    headers: json(cookie),
    body: JSON.stringify({ title: "Long history", markdown: revisionText(0) }),
  });
  const { id } = (await created.json()) as { id: string };
  let etag = (await fetch(`${api}/pages/${id}/content`, { headers: { cookie } })).headers.get("etag") ?? "";
  for (let revision = 1; revision <= revisions; revision += 1) {
    const reply = await fetch(`${api}/pages/${id}/content`, {
      method: "PUT",
      headers: { ...json(cookie), "if-match": etag },
      body: JSON.stringify({ markdown: revisionText(revision) }),
    });
    if (!reply.ok) throw new Error(`PUT content answered ${reply.status}: ${await reply.text()}`);
    await reply.arrayBuffer();
    etag = reply.headers.get("etag") ?? "";
  }
  log(`  page ${id} has ${revisions} content replacements of ${fmt(revisionText(1).length / 1000)} KB`);
  return id;
}

async function historyReads(
  server: Child,
  cookie: string,
  pageId: string,
  seconds: number,
): Promise<{ reads: number; failed: number }> {
  const deadline = performance.now() + seconds * 1000;
  let reads = 0;
  let failed = 0;
  // One read at a time, at least one, until the time is up.
  do {
    const reply = await fetch(`${server.url}/api/v1/pages/${pageId}/history?limit=1`, { headers: { cookie } });
    await reply.arrayBuffer();
    reads += 1;
    if (!reply.ok) failed += 1;
  } while (performance.now() < deadline);
  return { reads, failed };
}

/** One note of 20,000 `[[T]]` links (200 KB) and the note T they point at. */
function linkHeavyVault(): Array<{ path: string; content: string }> {
  return [
    { path: "T.md", content: "# T\n\nThe target of every link." },
    { path: "Links.md", content: `# Links\n\n${"[[T]] ".repeat(20_000)}\n` },
  ];
}

function multipartBody(boundary: string, image: Buffer, name: string): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="alt"\r\n\r\nHuge\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

/** The most pixels a small file may carry: 10000×9999 RGBA of one colour, about 400 KB as PNG. */
function worstCasePng(): Promise<Buffer> {
  return sharp({
    create: { width: 10_000, height: 9_999, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 0.5 } },
  })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

export async function benchEventLoop(options: {
  secret: string;
  quick: boolean;
  log: (line: string) => void;
}): Promise<EventLoopFigures> {
  const { log } = options;
  const readSeconds = options.quick ? 5 : 15;
  const { baseline, history } = await withOwnServer(options.secret, async (server, cookie) => {
    log("event loop: seeding a page with 100 content replacements of 2,000 lines");
    const pageId = await pageWithRevisions(server, cookie, 100, log);
    log(`event loop: quiet baseline for ${readSeconds} s`);
    const quiet = await measured(server, () => new Promise<void>((resolve) => setTimeout(resolve, readSeconds * 1000)));
    log(`event loop: GET /pages/{id}/history?limit=1 in a loop for ${readSeconds} s`);
    const reads = await measured(server, () => historyReads(server, cookie, pageId, readSeconds));
    return { baseline: quiet, history: { ...reads, ...reads.result } };
  });
  const vaultImport = await withOwnServer(options.secret, async (server, cookie) => {
    log("event loop: import of one note with 20,000 [[T]] links");
    const run = await measured(server, async () => {
      const reply = await fetch(`${server.url}/api/v1/imports/obsidian`, {
        method: "POST",
        headers: json(cookie),
        body: JSON.stringify({ files: linkHeavyVault() }),
      });
      await reply.arrayBuffer();
      return reply.status;
    });
    return { ...run, status: run.result };
  });
  const png = await worstCasePng();
  const uploads = await withOwnServer(options.secret, async (server, cookie) => {
    const page = await fetch(`${server.url}/api/v1/pages`, {
      method: "POST",
      headers: json(cookie),
      body: JSON.stringify({ title: "Huge images" }),
    });
    const { id } = (await page.json()) as { id: string };
    log(`event loop: 8 concurrent uploads of a 10000×9999 RGBA PNG (${fmt(png.length / 1000)} KB)`);
    const run = await measured(server, () =>
      Promise.all(
        Array.from({ length: 8 }, async (_, index) => {
          const boundary = `bench${randomUUID().replaceAll("-", "")}`;
          const reply = await fetch(`${server.url}/api/v1/pages/${id}/images`, {
            method: "POST",
            headers: { cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
            body: Uint8Array.from(multipartBody(boundary, png, `huge-${index}.png`)),
          });
          await reply.arrayBuffer();
          return reply.status;
        }),
      ),
    );
    return {
      ...run,
      statuses: run.result,
      created: run.result.filter((status) => status === 201).length,
      peakMb: server.memory().peakMb,
    };
  });
  return { baseline, history, vaultImport, uploads };
}

const delay = (figure: LoopDelay) =>
  `p99 ${fmt(figure.p99Ms, 1)} ms, max ${fmt(figure.maxMs)} ms over ${fmt(figure.seconds, 1)} s`;

export function eventLoopRows(figures: EventLoopFigures): Row[] {
  const { baseline, history, vaultImport, uploads } = figures;
  const reference = `quiet ${delay(baseline)}`;
  const row = (figure: string, measured: LoopDelay, note: string, ok: boolean): Row => ({
    figure,
    value: `${delay(measured)}${note}`,
    reference,
    ratio: `${fmt(measured.p99Ms / baseline.p99Ms, 1)}× quiet`,
    target: `p99 < ${TARGET_P99_MS} ms`,
    verdict: verdict(ok && measured.p99Ms < TARGET_P99_MS),
  });
  return [
    row(
      "event-loop delay: GET /pages/{id}/history?limit=1 (100 replacements of 2,000 lines)",
      history,
      `; ${fmt(history.reads)} reads${history.failed ? `, ${history.failed} failed` : ""}`,
      history.failed === 0,
    ),
    row(
      "event-loop delay: import of one note with 20,000 [[T]] links",
      vaultImport,
      `; answered ${vaultImport.status}`,
      vaultImport.status === 201,
    ),
    row(
      "event-loop delay: 8 concurrent 10000×9999 RGBA PNG uploads",
      uploads,
      `; ${uploads.created} of 8 created; peak RSS ${fmt(uploads.peakMb)} MB (target < ${TARGET_UPLOAD_PEAK_MB} MB)`,
      uploads.created === 8 && uploads.peakMb < TARGET_UPLOAD_PEAK_MB,
    ),
  ];
}

/** `npm run bench -- --only loop`: this row alone, printed and written to bench/results/<date>-loop.json. */
export async function benchEventLoopOnly(options: {
  secret: string;
  quick: boolean;
  log: (line: string) => void;
}): Promise<void> {
  const started = Date.now();
  const figures = await benchEventLoop(options);
  const rows = eventLoopRows(figures);
  process.stdout.write(`\nevent-loop row alone in ${fmt((Date.now() - started) / 1000)} s\n\n${renderTable(rows)}\n`);
  writeResults("-loop", { eventLoop: figures, rows }, options.log);
}
