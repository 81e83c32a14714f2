// Every projector batch adds a segment to the FTS5 index, and a query looks each term up in every segment:
// an index written batch by batch holds 10–20 of them and answers 3–5 times slower than a merged one
// (docs/benchmarks.md). When the projector has been idle for a moment, this merges the index in small steps,
// each its own short write transaction, yielding to the event loop between steps and stopping at the next
// batch, so a busy projector is never held up and an idle one ends with the index in one segment.
import type Database from "better-sqlite3";

/** Leaf pages one step writes: a few milliseconds of work. */
const PAGES_PER_STEP = 64;

export class IdleIndexMerge {
  private timer: NodeJS.Timeout | null = null;
  /** Bumped by every batch: a merge that sees it change stops and waits for the next idle moment. */
  private epoch = 0;
  private closed = false;
  private readonly step;
  private readonly changes;

  constructor(
    db: Database.Database,
    private readonly idleMs = 1_000,
  ) {
    // A negative page count merges segments of every level into one, as 'optimize' does, but incrementally.
    this.step = db.prepare(`INSERT INTO page_search (page_search, rank) VALUES ('merge', ${-PAGES_PER_STEP})`);
    this.changes = db.prepare<[], number>("SELECT total_changes()").pluck();
  }

  /** A batch committed: merge once the projector has been idle for `idleMs`. */
  afterBatch(): void {
    this.epoch += 1;
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.merge(this.epoch), this.idleMs);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private merge(epoch: number): void {
    this.timer = null;
    if (this.closed || epoch !== this.epoch) return;
    const before = this.changes.get() ?? 0;
    this.step.run();
    // FTS5's documented end test: a step that changed fewer than two rows found nothing left to merge.
    if ((this.changes.get() ?? 0) - before < 2) return;
    setImmediate(() => this.merge(epoch));
  }
}
