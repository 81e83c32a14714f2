// Every projector batch adds a segment to the FTS5 index, and a query looks each term up in every segment:
// an index written batch by batch holds 10–20 of them and answers 3–5 times slower than a merged one (the
// benchmark's search rows). When the projector has been idle for a moment, this merges the index in small steps,
// each its own short write transaction, yielding to the event loop between steps and stopping at the next
// batch, so a busy projector is never held up and an idle one ends with the index in one segment.
// A page's entry taken out of the index (deleted, purged) stays in its segment's leaves, only marked deleted,
// until a merge rewrites that segment (FTS5's `secure-delete` option cannot help a contentless index: it would
// need the text). So a batch that took entries out starts a merge at once, which runs through later batches
// until the index is one segment again, and a store closed before it ends finishes it first: a purged page's
// words leave the file's pages (overwritten, `secure_delete`) as soon as the purge is projected.
import type Database from "better-sqlite3";

/** Leaf pages one step writes: a few milliseconds of work. */
const PAGES_PER_STEP = 64;

export class IdleIndexMerge {
  private timer: NodeJS.Timeout | null = null;
  /** Bumped by every batch: a merge that sees it change stops and waits for the next idle moment. */
  private epoch = 0;
  private closed = false;
  /** Entries were taken out: merge to the end now, whatever batches come. */
  private erasing = false;
  private readonly step;
  private readonly changes;

  constructor(
    private readonly db: Database.Database,
    private readonly idleMs = 1_000,
  ) {
    // A negative page count merges segments of every level into one, as 'optimize' does, but incrementally.
    this.step = db.prepare(`INSERT INTO page_search (page_search, rank) VALUES ('merge', ${-PAGES_PER_STEP})`);
    this.changes = db.prepare<[], number>("SELECT total_changes()").pluck();
  }

  /**
   * A batch committed: merge once the projector has been idle for `idleMs`, or at once when it took entries out
   * of the index (`removedEntries`).
   */
  afterBatch(removedEntries = false): void {
    this.epoch += 1;
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    if (removedEntries || this.erasing) {
      const started = this.erasing;
      this.erasing = true;
      this.timer = null;
      if (!started) setImmediate(() => this.merge(this.epoch));
      return;
    }
    this.timer = setTimeout(() => this.merge(this.epoch), this.idleMs);
    this.timer.unref();
  }

  /** Stops merging; a merge owed to entries taken out is finished first, so their words leave the file. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.erasing && !this.closed && !this.db.inTransaction) while (this.stepChanged()) continue;
    this.erasing = false;
    this.closed = true;
  }

  /** One step; false when it found nothing left to merge (FTS5's documented end test: fewer than two rows changed). */
  private stepChanged(): boolean {
    const before = this.changes.get() ?? 0;
    this.step.run();
    return (this.changes.get() ?? 0) - before >= 2;
  }

  private merge(epoch: number): void {
    this.timer = null;
    if (this.closed || (!this.erasing && epoch !== this.epoch)) return;
    // A step taken inside a batch's open transaction would join it: wait for the batch to end.
    if (this.db.inTransaction) {
      setTimeout(() => this.merge(this.epoch), 5).unref();
      return;
    }
    if (!this.stepChanged()) {
      this.erasing = false;
      return;
    }
    setImmediate(() => this.merge(epoch));
  }
}
