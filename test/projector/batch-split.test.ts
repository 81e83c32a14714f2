// A run of large events must never make a batch the read store cannot hold: batches are bounded in bytes as
// well as in events, live and in a replay, and a batch the store refuses as too large or too long is split
// and retried smaller, down to one event; only an event refused alone stalls the projector. Real SQLite stores;
// the refusal (MongoDB's TransactionTooLargeForCache, a transaction's time limit) is injected by a decorator of
// the SQLite projection store, whose positions are dense, so a batch's size is its span of positions.
import { randomUUID } from "node:crypto";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Projector } from "../../services/projector/projector.ts";
import { rebuildReadModels } from "../../services/projector/rebuild.ts";
import { PrometheusMetrics } from "../../shared/adapters/prometheus/prometheus.metrics.ts";
import type { SqliteBatch } from "../../shared/adapters/sqlite/sqlite-batch.ts";
import { toNewEvents } from "../../shared/commands/new-events.ts";
import { pageIdSchema, userIdSchema, type PageId } from "../../shared/kernel/ids.ts";
import { BatchRefusedError } from "../../shared/read-store/batch-refused.ts";
import type { ProjectionStore } from "../../shared/read-store/read-store.port.ts";
import { projectorStores, type ProjectorStores } from "../support/projector-stores.ts";
import { until } from "../support/poll.ts";

let stores: ProjectorStores;
let projector: Projector<SqliteBatch> | null = null;
const silent = pino({ level: "silent" });

beforeEach(async () => {
  stores = await projectorStores();
});
afterEach(async () => {
  await projector?.stop();
  projector = null;
  await stores.close();
});

interface Refusals {
  /** Batches of more events than this are refused as too large. */
  maxEvents: number;
  /** Positions the store refuses in any batch, even alone. */
  positions: Set<number>;
}

/** The SQLite projection store, recording the events of each committed batch and refusing what `refusals` says. */
function refusingStore(refusals: Refusals): { store: ProjectionStore<SqliteBatch>; committed: number[] } {
  const { projection } = stores;
  const committed: number[] = [];
  const store: ProjectionStore<SqliteBatch> = {
    writers: projection.writers,
    parked: projection.parked,
    checkpoint: () => projection.checkpoint(),
    async applyBatch(position, work) {
      if (position === null) return projection.applyBatch(null, work);
      const from = await projection.checkpoint();
      const count = position - from;
      const refusedInside = [...refusals.positions].some((refused) => refused > from && refused <= position);
      if (count > refusals.maxEvents || refusedInside) throw new BatchRefusedError("too_large");
      await projection.applyBatch(position, work);
      committed.push(count);
    },
    beginRebuild: () => projection.beginRebuild(),
    endRebuild: () => projection.endRebuild(),
    close: () => projection.close(),
  };
  return { store, committed };
}

const owner = userIdSchema.parse(randomUUID());

/** Appends one PageCreated per page, each its own append (so positions are consecutive); returns the pages. */
async function createPages(count: number, markdown = ""): Promise<{ pages: PageId[]; positions: number[] }> {
  const pages: PageId[] = [];
  const positions: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const pageId = pageIdSchema.parse(randomUUID());
    const context = { actorId: owner, correlationId: randomUUID(), now: new Date() };
    const data = { pageId, ownerId: owner, parentId: null, title: `Page ${index}`, icon: null, markdown };
    const { position } = await stores.eventStore.append(
      `page-${pageId}`,
      toNewEvents([{ type: "PageCreated", data }], context),
      "no_stream",
    );
    pages.push(pageId);
    positions.push(position);
  }
  return { pages, positions };
}

async function allProjected(pages: readonly PageId[]): Promise<boolean> {
  for (const page of pages) if ((await stores.reader.pages.get(page)) === null) return false;
  return true;
}

describe("projection batches bounded in bytes", () => {
  it("projects large events live in batches of at most the configured bytes, a few events each", async () => {
    const { pages, positions } = await createPages(12, "x".repeat(2_000));
    const { store, committed } = refusingStore({ maxEvents: Number.POSITIVE_INFINITY, positions: new Set() });
    projector = new Projector({
      eventStore: stores.eventStore,
      store,
      logger: silent,
      batchSize: 500,
      batchBytes: 5_000,
    });
    await projector.start();
    await until(async () => (await stores.reader.checkpoint()) >= (positions.at(-1) ?? 0), "every page projected");
    expect(await allProjected(pages)).toBe(true);
    expect(committed.reduce((sum, count) => sum + count, 0)).toBe(12);
    expect(Math.max(...committed)).toBeLessThanOrEqual(2);
  });

  it("bounds the batches of a replay in bytes too", async () => {
    const { pages } = await createPages(12, "x".repeat(2_000));
    const { store, committed } = refusingStore({ maxEvents: Number.POSITIVE_INFINITY, positions: new Set() });
    const result = await rebuildReadModels({ eventStore: stores.eventStore, store, logger: silent, batchBytes: 5_000 });
    expect(result.applied).toBe(12);
    expect(await allProjected(pages)).toBe(true);
    expect(Math.max(...committed)).toBeLessThanOrEqual(2);
  });
});

describe("a batch the store refuses as too large", () => {
  it("is split and retried smaller until every event is projected, without a stall", async () => {
    const { pages, positions } = await createPages(20);
    const { store, committed } = refusingStore({ maxEvents: 3, positions: new Set() });
    const metrics = new PrometheusMetrics({ defaultMetrics: false });
    projector = new Projector({
      eventStore: stores.eventStore,
      store,
      logger: silent,
      metrics,
      batchSize: 500,
      retryDelayMs: 5,
      maxRetryDelayMs: 20,
      stallAfter: 1,
    });
    await projector.start();
    await until(async () => (await stores.reader.checkpoint()) >= (positions.at(-1) ?? 0), "every page projected");
    expect(await allProjected(pages)).toBe(true);
    expect(Math.max(...committed)).toBeLessThanOrEqual(3);
    expect(projector.stall).toBeNull();
    const exposed = (await metrics.exposition()).body;
    expect(exposed).toMatch(/^projector_stalled 0$/m);
    expect(exposed).toMatch(/^projector_batch_failures_total 0$/m);
  });

  it("is split in a replay as well", async () => {
    const { pages } = await createPages(20);
    const { store } = refusingStore({ maxEvents: 3, positions: new Set() });
    const result = await rebuildReadModels({ eventStore: stores.eventStore, store, logger: silent });
    expect(result.applied).toBe(20);
    expect(await allProjected(pages)).toBe(true);
  });

  it("stalls at once on an event refused even alone, after committing every event before it, and recovers once it passes", async () => {
    const { pages, positions } = await createPages(10);
    const poison = positions[4] ?? 0;
    const refusals: Refusals = { maxEvents: Number.POSITIVE_INFINITY, positions: new Set([poison]) };
    const { store } = refusingStore(refusals);
    const metrics = new PrometheusMetrics({ defaultMetrics: false });
    // stallAfter is far away: the stall below comes from the event refused alone, not from repeated failures.
    projector = new Projector({
      eventStore: stores.eventStore,
      store,
      logger: silent,
      metrics,
      batchSize: 500,
      retryDelayMs: 50,
      maxRetryDelayMs: 100,
      stallAfter: 1_000,
    });
    await projector.start();
    await until(async () => projector?.stall !== null, "the stall");
    expect(projector.stall?.position).toBe(poison - 1);
    expect(await stores.reader.checkpoint()).toBe(poison - 1);
    expect(await allProjected(pages.slice(0, 4))).toBe(true);
    expect(await stores.reader.pages.get(pages[5] ?? pageIdSchema.parse(randomUUID()))).toBeNull();
    expect((await metrics.exposition()).body).toMatch(/^projector_stalled 1$/m);

    refusals.positions.clear();
    await until(async () => (await stores.reader.checkpoint()) >= (positions.at(-1) ?? 0), "the events behind it");
    expect(await allProjected(pages)).toBe(true);
    expect(projector.stall).toBeNull();
  });
});
