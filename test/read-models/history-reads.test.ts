// History reads cost what they return: summaries are computed when projected and stored, a page of history
// reads only its rows, and a caller who may not see a page is refused before any history row is read.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../shared/auth/principal.ts";
import { AppError } from "../../shared/errors/app-error.ts";
import type { DomainEvent } from "../../shared/events.ts";
import type { HistoryView } from "../../shared/history/history.view.ts";
import { pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { pageHistoryFor } from "../../shared/history/read-history.ts";
import type { ReadModels } from "../../shared/read-store/read-store.port.ts";
import { projectedLog, type ProjectedLog } from "../support/projected-log.ts";

const REVISIONS = 40;
const ownerId = userIdSchema.parse(randomUUID());
const pageId = pageIdSchema.parse(randomUUID());
const lines = (revision: number) =>
  Array.from({ length: 200 }, (_, i) =>
    i % 10 === revision % 10 ? `line ${i} of revision ${revision}` : `line ${i}`,
  ).join("\n");

let log: ProjectedLog;
let reader: ReadModels;

/** Wraps the history view, counting the rows each read hands back. */
function counted(views: ReadModels): { views: ReadModels; rows: () => number } {
  let rows = 0;
  const count = <T>(result: T): T => {
    rows += Array.isArray(result) ? result.length : result === null ? 0 : 1;
    return result;
  };
  const history: HistoryView = {
    changesOf: async (...args) => count(await views.history.changesOf(...args)),
    changesAfter: async (...args) => count(await views.history.changesAfter(...args)),
    firstEntryOf: async (...args) => count(await views.history.firstEntryOf(...args)),
    pageStateAt: async (...args) => {
      const state = await views.history.pageStateAt(...args);
      rows += state.count;
      return state;
    },
  };
  return { views: { ...views, history }, rows: () => rows };
}

const principal = (id: string): Principal => ({
  user: { id, email: `${id}@example.com`, name: "Someone", image: null, createdAt: new Date().toISOString() },
  authentication: "session",
  scopes: null,
  tokenId: null,
  expiresAt: null,
});

const refusal = async (work: Promise<unknown>): Promise<unknown> => {
  try {
    await work;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
};

beforeAll(async () => {
  // Projected in several batches, so summaries are computed against folds both held in a batch and stored before it.
  log = await projectedLog(
    `page-${pageId}`,
    ownerId,
    [
      { type: "PageCreated", data: { pageId, ownerId, parentId: null, title: "Long", icon: null, markdown: lines(0) } },
      ...Array.from({ length: REVISIONS }, (_, i): DomainEvent => ({
        type: "PageContentReplaced",
        data: { pageId, markdown: lines(i + 1) },
      })),
    ],
    7,
  );
  reader = log.stores.reader;
});

afterAll(() => log.stores.close());

describe("reading a page's history", () => {
  it("reads one row for limit=1 and gets the change's summary as computed when it was projected", async () => {
    const { views, rows } = counted(reader);
    const newest = await pageHistoryFor(views, principal(ownerId), pageId, { order: "desc", from: null, limit: 1 });
    expect(newest.data.map((item) => item.changes)).toEqual([
      {
        kind: "content",
        sizeBefore: lines(REVISIONS - 1).length,
        sizeAfter: lines(REVISIONS).length,
        linesAdded: 40,
        linesRemoved: 40,
      },
    ]);
    expect(rows()).toBeLessThanOrEqual(2);
    expect(newest.next).toBe(REVISIONS + 1);
  });

  it("pages through the changes with the cursor, each read bounded by its limit", async () => {
    const { views, rows } = counted(reader);
    const first = await pageHistoryFor(views, principal(ownerId), pageId, { order: "asc", from: null, limit: 2 });
    expect(first.data.map((item) => item.changes.kind)).toEqual(["created", "content"]);
    const second = await pageHistoryFor(views, principal(ownerId), pageId, {
      order: "asc",
      from: first.next,
      limit: 2,
    });
    expect(second.data.map((item) => item.entry.position)).toEqual([3, 4]);
    expect(second.data[0]?.changes).toEqual({
      kind: "content",
      sizeBefore: lines(1).length,
      sizeAfter: lines(2).length,
      linesAdded: 40,
      linesRemoved: 40,
    });
    expect(rows()).toBeLessThanOrEqual(6);
  });

  it("refuses a stranger exactly as for a page that does not exist, without reading any history row", async () => {
    const { views, rows } = counted(reader);
    const stranger = principal(randomUUID());
    const existing = await refusal(pageHistoryFor(views, stranger, pageId, { order: "desc", from: null, limit: 50 }));
    const missing = await refusal(
      pageHistoryFor(views, stranger, randomUUID(), { order: "desc", from: null, limit: 50 }),
    );
    expect(existing).toEqual({ code: "not_found", message: "page not found" });
    expect(missing).toEqual(existing);
    expect(rows()).toBe(0);
  });

  it("keeps the summaries first recorded when a batch is applied again, as after a crash without a transaction", async () => {
    const query = { order: "asc" as const, from: 7, limit: 7 };
    const before = await pageHistoryFor(reader, principal(ownerId), pageId, query);
    await log.projector.applyBatch(log.recorded.slice(7, 14));
    const after = await pageHistoryFor(reader, principal(ownerId), pageId, query);
    expect(after.data.map((item) => item.changes)).toEqual(before.data.map((item) => item.changes));
    expect(after.data[0]?.changes).toEqual({
      kind: "content",
      sizeBefore: lines(6).length,
      sizeAfter: lines(7).length,
      linesAdded: 40,
      linesRemoved: 40,
    });
  });
});
