// The newest `take` distinct items across several sources that each yield items newest first: a k-way merge
// that reads every source in small chunks and only goes deeper into the sources that could still hold winners,
// so a list over many grants reads about `take` rows plus a few per grant, not `take` per grant. Items are
// ordered by (position, id), a total order, so items sharing a position are neither lost nor repeated.
import { compareNewestFirst, type ListKey } from "./list-query.ts";

export type Ranked = ListKey;

/** Items of one source strictly after `before` in newest-first (position, id) order, at most `limit`. */
export type RankedSource = (before: ListKey, limit: number) => Ranked[];

/**
 * Reads the first chunk of every source at once (e.g. one compound query instead of one per source): it must
 * answer, for each source in order, what `source(before, limit)` would.
 */
export type FirstRound = (before: ListKey, limit: number) => Ranked[][];

export function newestOfSources(
  sources: readonly RankedSource[],
  before: ListKey,
  take: number,
  firstRound?: FirstRound,
): Ranked[] {
  const firstChunk = Math.max(8, Math.ceil((2 * take) / Math.max(1, sources.length)));
  const found = new Map<string, Ranked>();
  const cursors = sources.map((read) => ({ read, next: before, exhausted: false }));
  const record = (cursor: (typeof cursors)[number], rows: Ranked[], limit: number): void => {
    for (const row of rows) found.set(row.id, row);
    const last = rows[rows.length - 1];
    if (rows.length < limit || !last) cursor.exhausted = true;
    else cursor.next = last;
  };
  const pull = (cursor: (typeof cursors)[number], limit: number): void =>
    record(cursor, cursor.read(cursor.next, limit), limit);
  const first = firstRound?.(before, firstChunk);
  cursors.forEach((cursor, index) => record(cursor, first?.[index] ?? cursor.read(before, firstChunk), firstChunk));
  for (;;) {
    const open = cursors.filter((cursor) => !cursor.exhausted);
    if (open.length === 0) break;
    // Every item at or ahead of the threshold is known: what a source has not yielded comes after its `next`.
    const threshold = open
      .map((cursor) => cursor.next)
      .reduce((newest, next) => (compareNewestFirst(next, newest) < 0 ? next : newest));
    let certain = 0;
    for (const item of found.values()) if (compareNewestFirst(item, threshold) <= 0) certain += 1;
    if (certain >= take) break;
    for (const cursor of open) if (compareNewestFirst(cursor.next, threshold) === 0) pull(cursor, take);
  }
  return [...found.values()].sort(compareNewestFirst).slice(0, take);
}
