// The main table's rows of the event log and the projection, measured in process on stores of their own: appends
// against raw SQLite and Emmett, projection lag, the change feed, the search index's cost, replay, and sealing.
import { benchAppends } from "../append.ts";
import { benchErasureCost, erasureCostRows, erasureCostSizes } from "../erasure-cost.ts";
import { historyRows } from "../history-rows.ts";
import { benchChangeFeed } from "../history.ts";
import { benchProjectionLag, benchReplay } from "../projection.ts";
import { fmt, verdict } from "../report.ts";
import { benchSearchIndexCost } from "../search.ts";
import type { HttpFigures } from "./http-rows.ts";
import type { TableRun } from "./table-run.ts";

export async function storeRows(run: TableRun, http: HttpFigures): Promise<void> {
  const { options, log, rows, raw, workDir } = run;
  log(`event store appends: ${fmt(options.appendEvents)} events per batch size`);
  const appends = await benchAppends(workDir, options.appendEvents, { peer: !options.noPeer });
  raw.appends = appends;
  for (const a of appends) {
    const ratio = a.oursPerSecond / a.rawPerSecond;
    rows.push({
      figure: `event store append, batches of ${a.batchSize}`,
      value: `${fmt(a.oursPerSecond)} events/s`,
      reference: `raw ${fmt(a.rawPerSecond)}; Emmett ${a.emmettPerSecond === null ? (options.noPeer ? "not run" : "failed") : fmt(a.emmettPerSecond)}`,
      ratio: `${fmt(ratio, 2)}× raw`,
      target: "≥ 0.7× raw, ahead of Emmett",
      verdict: verdict(ratio >= 0.7 && (a.emmettPerSecond === null || a.oursPerSecond > a.emmettPerSecond)),
    });
  }

  log(`projection lag at 1,000 writes/s for ${options.lagSeconds} s`);
  const lag = await benchProjectionLag(workDir, 1_000, options.lagSeconds);
  raw.projectionLag = lag;
  rows.push({
    figure: "projection lag at 1,000 writes/s",
    value: `p50 ${fmt(lag.p50Ms, 1)} ms, p99 ${fmt(lag.p99Ms, 1)} ms`,
    reference: "—",
    ratio: "—",
    target: "p99 ≤ 20 ms",
    verdict: verdict(lag.p99Ms <= 20),
  });

  log(`change feed: 1,000 writes/s for ${options.lagSeconds} s to 100 feeds`);
  const feed = await benchChangeFeed(workDir, 1_000, options.lagSeconds, 100);
  raw.changeFeed = feed;
  const [readAtRow, ...feedRows] = historyRows({ ceiling: http.ceiling, readAt: http.readAt, feed });
  if (readAtRow) rows.push(http.readAtRow(readAtRow.figure), ...feedRows);
  const indexPages = Math.max(1_000, Math.floor(options.replayEvents / 40));
  log(`projection with and without the search index: ${fmt(indexPages * 4)} page writes`);
  const indexCost = await benchSearchIndexCost(workDir, indexPages);
  raw.searchIndexCost = indexCost;
  rows.push({
    figure: `projection of ${fmt(indexCost.events)} page writes, batches of 4, with the search index`,
    value: `${fmt(indexCost.withIndexPerSecond)} events/s`,
    reference: `without the index ${fmt(indexCost.withoutIndexPerSecond)} events/s`,
    ratio: `${fmt(indexCost.withIndexPerSecond / indexCost.withoutIndexPerSecond, 2)}× without`,
    target: "report",
    verdict: "report",
  });

  log(`replay of ${fmt(options.replayEvents)} events`);
  const replay = await benchReplay(workDir, options.replayEvents, log);
  raw.replay = replay;
  rows.push({
    figure: `replay of ${fmt(replay.events)} events into an empty read store`,
    value: `${fmt(replay.eventsPerSecond)} events/s`,
    reference: `raw read ${fmt(replay.rawReadPerSecond)} events/s`,
    ratio: `${fmt(replay.eventsPerSecond / replay.rawReadPerSecond, 2)}× raw`,
    target: "≥ 100,000 events/s",
    verdict: verdict(replay.eventsPerSecond >= 100_000),
  });
  log("the cost of sealing: writes, replay and reads, plain against sealed");
  const erasureCost = await benchErasureCost(workDir, erasureCostSizes(options), log);
  raw.erasureCost = erasureCost;
  rows.push(...erasureCostRows(erasureCost));
}
