// The newest `take` distinct items across several sources that each yield items newest first: a k-way merge
// that reads every source in small chunks and only goes deeper into the sources that could still hold winners,
// so a list over many grants reads about `take` rows plus a few per grant, not `take` per grant.

export interface Ranked {
  readonly id: string;
  readonly position: number;
}

/** Items of one source strictly older than `before`, newest first, at most `limit`. */
export type RankedSource = (before: number, limit: number) => Ranked[];

/**
 * Reads the first chunk of every source at once (e.g. one compound query instead of one per source): it must
 * answer, for each source in order, what `source(before, limit)` would.
 */
export type FirstRound = (before: number, limit: number) => Ranked[][];

export function newestOfSources(sources: readonly RankedSource[], before: number, take: number, firstRound?: FirstRound): Ranked[] {
  const firstChunk = Math.max(8, Math.ceil((2 * take) / Math.max(1, sources.length)));
  const found = new Map<string, number>();
  const cursors = sources.map((read) => ({ read, next: before, exhausted: false }));
  const record = (cursor: (typeof cursors)[number], rows: Ranked[], limit: number): void => {
    for (const row of rows) found.set(row.id, row.position);
    const last = rows[rows.length - 1];
    if (rows.length < limit || !last) cursor.exhausted = true;
    else cursor.next = last.position;
  };
  const pull = (cursor: (typeof cursors)[number], limit: number): void => record(cursor, cursor.read(cursor.next, limit), limit);
  const first = firstRound?.(before, firstChunk);
  cursors.forEach((cursor, index) => record(cursor, first?.[index] ?? cursor.read(before, firstChunk), firstChunk));
  for (;;) {
    const open = cursors.filter((cursor) => !cursor.exhausted);
    if (open.length === 0) break;
    // Every item at or above the threshold is known: what a source has not yielded is older than its `next`.
    const threshold = Math.max(...open.map((cursor) => cursor.next));
    let certain = 0;
    for (const position of found.values()) if (position >= threshold) certain += 1;
    if (certain >= take) break;
    for (const cursor of open) if (cursor.next === threshold) pull(cursor, take);
  }
  return [...found.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, take)
    .map(([id, position]) => ({ id, position }));
}
