// The SQLite batch handle: what the projection store hands every writer for one batch. better-sqlite3 runs on
// the projector's single connection inside BEGIN IMMEDIATE, so the handle carries no connection of its own;
// it lets a writer hold changes back and have them written just before the batch commits. A rolled-back
// batch is dropped with its handle, and what it held back with it.
export class SqliteBatch {
  private readonly beforeCommit: Array<() => void> = [];

  /** Registers work to run once, when the batch is about to commit. */
  onBeforeCommit(write: () => void): void {
    this.beforeCommit.push(write);
  }

  /** Called by the store just before COMMIT. */
  settle(): void {
    for (const write of this.beforeCommit.splice(0)) write();
  }
}

/** How a read model lays itself out in SQLite: its schema, its tables, and the indexes only queries use. */
export interface SqliteModel {
  readonly schema: string;
  readonly tables: readonly string[];
  /** Dropped during a rebuild (no projection looks rows up through them) and restored after it. */
  readonly queryIndexes: readonly string[];
  /** Run once a rebuild has loaded everything (e.g. merging a full-text index into one segment). */
  readonly afterRebuild?: string;
}
