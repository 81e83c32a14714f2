// A change feed resuming from the start of a long log catches up in bounded batches and gives the event loop a
// turn between them, so other requests are served while it reads: every entry arrives once, in order.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DomainEvent } from "../../shared/events.ts";
import { ChangeFeedHub, type Feed } from "../../shared/history/change-feed.ts";
import type { DescribedEntry } from "../../shared/history/describe-history.ts";
import { pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import type { ReadModels } from "../../shared/read-store/read-store.port.ts";
import { projectedLog, type ProjectedLog } from "../support/projected-log.ts";

const REVISIONS = 1_200;
const ownerId = userIdSchema.parse(randomUUID());
const pageId = pageIdSchema.parse(randomUUID());

let log: ProjectedLog;

beforeAll(async () => {
  log = await projectedLog(
    `page-${pageId}`,
    ownerId,
    [
      {
        type: "PageCreated",
        data: { pageId, ownerId, parentId: null, title: "Busy", icon: null, markdown: "revision 0" },
      },
      ...Array.from({ length: REVISIONS }, (_, i): DomainEvent => ({
        type: "PageContentReplaced",
        data: { pageId, markdown: `revision ${i + 1}` },
      })),
    ],
    500,
  );
});

afterAll(() => log.stores.close());

/** The views, recording for each read of the log its limit and whether the event loop turned since the last one. */
function watched(views: ReadModels): { views: ReadModels; reads: Array<{ limit: number; turnedBefore: boolean }> } {
  const reads: Array<{ limit: number; turnedBefore: boolean }> = [];
  let turned = true;
  const history = {
    ...views.history,
    changesAfter: async (after: number, limit: number) => {
      reads.push({ limit, turnedBefore: turned });
      turned = false;
      setImmediate(() => (turned = true));
      return views.history.changesAfter(after, limit);
    },
  };
  return { views: { ...views, history }, reads };
}

it("catches a feed up from position 0 in bounded batches, with a turn of the event loop between them", async () => {
  const { views, reads } = watched(log.stores.reader);
  const head = REVISIONS + 1;
  const hub = new ChangeFeedHub(
    views,
    {
      current: async () => head,
      waitFor: (_position, ms) => new Promise((resolve) => setTimeout(() => resolve(false), Math.min(ms, 20))),
    },
    { maxPerUser: 1, clock: () => new Date() },
  );
  const delivered: DescribedEntry[] = [];
  const feed: Feed = {
    userId: ownerId,
    credential: { tokenId: null, expiresAt: null },
    cursor: 0,
    deliver: (entries) => delivered.push(...entries),
    end: () => undefined,
  };
  hub.admit(feed);
  await hub.start(feed);
  hub.close(feed);
  await hub.stop();
  expect(delivered.map((described) => described.entry.position)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
  const catchUp = reads.slice(0, 3);
  expect(catchUp.length).toBe(3);
  expect(catchUp.every((read) => read.limit <= 500)).toBe(true);
  expect(catchUp.slice(1).every((read) => read.turnedBefore)).toBe(true);
});
