// The SQLite files' write-ahead logs, emptied on demand (an erasure's last step): a TRUNCATE checkpoint through a
// connection of its own per file, which copies the WAL's frames into the file (where secure_delete overwrote
// what was deleted) and truncates the WAL to nothing. A reader or writer of the same process may hold the file
// mid-transaction across an await (a projector batch): the checkpoint is then retried after a pause, never
// waited for on the event loop, and gives up with an error past its deadline, so the erasure does not answer.
import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { z } from "zod";
import type { StoreJournals } from "../../erasure/store-journals.port.ts";

const checkpointResult = z.array(z.object({ busy: z.number(), log: z.number(), checkpointed: z.number() }));

export class SqliteJournals implements StoreJournals {
  constructor(
    private readonly files: readonly string[],
    private readonly deadlineMs = 10_000,
  ) {}

  async empty(): Promise<void> {
    for (const file of this.files) if (existsSync(file)) await this.emptyOne(file);
  }

  private async emptyOne(file: string): Promise<void> {
    const db = new Database(file, { fileMustExist: true });
    try {
      db.pragma("busy_timeout = 0");
      const deadline = Date.now() + this.deadlineMs;
      for (;;) {
        const [result] = checkpointResult.parse(db.pragma("wal_checkpoint(TRUNCATE)"));
        if (result && result.busy === 0) return;
        if (Date.now() > deadline) throw new Error(`the write-ahead log of ${file} stayed busy: it was not emptied`);
        await sleep(10);
      }
    } finally {
      db.close();
    }
  }
}
