// The history figures as table rows, shared by `npm run bench` and `npm run bench:history`.
import { failedText, type LoadFigures } from "./http-load.ts";
import { fmt, type Row } from "./report.ts";

/** `historyPage`, when measured: GET /pages/{id}/history?limit=1 of the same page (only `bench:history` runs it). */
export function historyRows(figures: {
  ceiling: LoadFigures;
  readAt: LoadFigures;
  feed: { p50Ms: number; p99Ms: number; deliveries: number; expected: number };
  historyPage?: LoadFigures;
}): Row[] {
  const { ceiling, readAt, feed, historyPage } = figures;
  const pageRows: Row[] = historyPage
    ? [
        {
          figure: "GET /pages/{id}/history?limit=1 (1,000 revisions)",
          value: `${fmt(historyPage.requestsPerSecond)} req/s, p99 ${fmt(historyPage.p99Ms)} ms, ${failedText(historyPage)}`,
          reference: `ceiling ${fmt(ceiling.requestsPerSecond)} req/s`,
          ratio: `${fmt(historyPage.requestsPerSecond / ceiling.requestsPerSecond, 2)}×`,
          target: "report",
          verdict: "report",
        },
      ]
    : [];
  return [
    ...pageRows,
    {
      figure: "GET /pages/{id}?at= (1,000 revisions)",
      value: `${fmt(readAt.requestsPerSecond)} req/s, p99 ${fmt(readAt.p99Ms)} ms, ${failedText(readAt)}`,
      reference: `ceiling ${fmt(ceiling.requestsPerSecond)} req/s`,
      ratio: `${fmt(readAt.requestsPerSecond / ceiling.requestsPerSecond, 2)}×`,
      target: "report",
      verdict: "report",
    },
    {
      figure: "change feed delivery, 1,000 writes/s to 100 feeds",
      value: `p50 ${fmt(feed.p50Ms, 1)} ms, p99 ${fmt(feed.p99Ms, 1)} ms`,
      reference: `${fmt(feed.deliveries)} of ${fmt(feed.expected)} deliveries`,
      ratio: "—",
      target: "report",
      verdict: "report",
    },
  ];
}
