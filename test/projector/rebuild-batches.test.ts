// A rebuild reads the log in batches bounded by bytes as well as by count, and gives the event loop a turn
// between them: a run of large pages makes smaller batches, never one batch of every page.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import { SqliteProjectionStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import { readAllBounded } from "../../shared/event-store/bounded-read.ts";
import { schemaVersionOf } from "../../shared/event-store/upcasters.ts";
import { pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { rebuildReadModels } from "../../services/projector/rebuild.ts";
import { tempDir } from "../support/temp-dir.ts";

const PAGES = 12;
const LARGE = 400_000;
const ownerId = userIdSchema.parse(randomUUID());

let dir: Awaited<ReturnType<typeof tempDir>>;
let eventStore: SqliteEventStore;

beforeAll(async () => {
  dir = await tempDir();
  eventStore = new SqliteEventStore(join(dir.path, "events.sqlite"), { pollMs: 50 });
  for (let index = 0; index < PAGES; index++) {
    const pageId = pageIdSchema.parse(randomUUID());
    const data = {
      pageId,
      ownerId,
      parentId: null,
      title: `Large ${index}`,
      icon: null,
      markdown: `${index} `.padEnd(LARGE, "x"),
    };
    const metadata = {
      actorId: ownerId,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: schemaVersionOf("PageCreated"),
    };
    await eventStore.append(`page-${pageId}`, [{ id: randomUUID(), type: "PageCreated", data, metadata }], "no_stream");
  }
});

afterAll(async () => {
  await eventStore.close();
  await dir.remove();
});

it("reads the log in batches that stop at the byte bound, and every event once, in order", async () => {
  const batches: number[][] = [];
  for (let after = 0; ;) {
    const batch = await readAllBounded(eventStore, after, { maxEvents: 1_000, maxBytes: 1_000_000 });
    const last = batch.at(-1);
    if (!last) break;
    batches.push(batch.map((event) => event.position));
    after = last.position;
  }
  expect(batches.flat()).toEqual(Array.from({ length: PAGES }, (_, i) => i + 1));
  // 400 KB each: a batch closes once it holds 1 MB.
  expect(batches.map((batch) => batch.length)).toEqual([3, 3, 3, 3]);
});

it("rebuilds in batches bounded by bytes, with a turn of the event loop between them", async () => {
  const store = new SqliteProjectionStore(join(dir.path, "read.sqlite"));
  const progress: Array<{ applied: number; turnedBefore: boolean }> = [];
  let turned = true;
  await rebuildReadModels({
    eventStore,
    store,
    logger: pino({ level: "silent" }),
    batchBytes: 1_000_000,
    onProgress: ({ applied }) => {
      progress.push({ applied, turnedBefore: turned });
      turned = false;
      setImmediate(() => (turned = true));
    },
  });
  await store.close();
  expect(progress.at(-1)?.applied).toBe(PAGES);
  const sizes = progress.map(({ applied }, index) => applied - (progress[index - 1]?.applied ?? 0));
  expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
  expect(progress.slice(1).every(({ turnedBefore }) => turnedBefore)).toBe(true);
});
