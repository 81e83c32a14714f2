// A batch that can never be projected (here a read model that always refuses one event: a store fault, which is
// retried rather than parked, unlike a projection's own failure: parked-events.test.ts) must not halt the read
// side silently: after a few failures in a row the projector reports itself stalled through /readyz (503, with
// the reason) and the projector_stalled metric, keeps retrying with backoff, and clears both once the batch
// commits. Real SQLite stores; the refusing projection is injected for one page.
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { pino } from "pino";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Projector } from "../../services/projector/projector.ts";
import { PrometheusMetrics } from "../../shared/adapters/prometheus/prometheus.metrics.ts";
import type { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import type { SqliteBatch } from "../../shared/adapters/sqlite/sqlite-batch.ts";
import type { SqliteProjectionStore, SqliteReadStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import { toNewEvents } from "../../shared/commands/new-events.ts";
import { createApp, type App } from "../../shared/http/create-app.ts";
import { healthRoutes } from "../../shared/http/health.routes.ts";
import { pageIdSchema, userIdSchema, type PageId } from "../../shared/kernel/ids.ts";
import type { ProjectionStore } from "../../shared/read-store/read-store.port.ts";
import { projectorStores, withPagePutFailing, type ProjectorStores } from "../support/projector-stores.ts";
import { until } from "../support/poll.ts";

let stores: ProjectorStores;
let eventStore: SqliteEventStore;
let projection: SqliteProjectionStore;
let reader: SqliteReadStore;
let projector: Projector<SqliteBatch> | null = null;
let app: App | null = null;

beforeEach(async () => {
  stores = await projectorStores();
  ({ eventStore, projection, reader } = stores);
});
afterEach(async () => {
  await app?.close();
  await projector?.stop();
  await stores.close();
});

/** The SQLite projection store, whose pages read model refuses to create `poisoned` while `refusing.on`. */
function refusingStore(poisoned: PageId, refusing: { on: boolean }): ProjectionStore<SqliteBatch> {
  // A store fault (a unique index violated by data written by hand, a full disk): retried, never parked.
  return withPagePutFailing(projection, (pageId) =>
    refusing.on && pageId === poisoned
      ? new Database.SqliteError("this read model refuses the page", "SQLITE_CONSTRAINT_UNIQUE")
      : null,
  );
}

it("reports a poison batch through /readyz and the metrics, keeps retrying, and recovers once it commits", async () => {
  const owner = userIdSchema.parse(randomUUID());
  const context = { actorId: owner, correlationId: randomUUID(), now: new Date() };
  const createPage = async (pageId: PageId, title: string) =>
    eventStore.append(
      `page-${pageId}`,
      toNewEvents(
        [{ type: "PageCreated", data: { pageId, ownerId: owner, parentId: null, title, icon: null, markdown: "" } }],
        context,
      ),
      "no_stream",
    );
  const healthy = pageIdSchema.parse(randomUUID());
  const poisoned = pageIdSchema.parse(randomUUID());
  const later = pageIdSchema.parse(randomUUID());
  const first = await createPage(healthy, "Before");
  const refusing = { on: true };
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  projector = new Projector({
    eventStore,
    store: refusingStore(poisoned, refusing),
    logger: pino({ level: "silent" }),
    metrics,
    batchSize: 1,
    retryDelayMs: 5,
    maxRetryDelayMs: 20,
    stallAfter: 3,
  });
  app = createApp({ logger: pino({ level: "silent" }), bodyLimit: 1024 * 1024 });
  healthRoutes(app, { eventStore, readStore: reader, projector });
  await projector.start();
  await until(async () => (await reader.checkpoint()) >= first.position, "the first page");
  await createPage(poisoned, "Poison");
  const last = await createPage(later, "After");

  const readyz = async () => {
    const answer = await app?.inject({ method: "GET", url: "/readyz" });
    return {
      status: answer?.statusCode,
      body: answer?.json<{ status: string; reason?: string; checkpoint: string }>(),
    };
  };
  await until(
    async () => (await readyz()).status === 503 && (await readyz()).body?.status === "stalled",
    "the stall to show",
  );
  const stalled = await readyz();
  expect(stalled.body?.checkpoint).toBe(String(first.position));
  expect(stalled.body?.reason).toMatch(
    new RegExp(`the projection batch after position ${first.position} has failed \\d+ times`),
  );
  expect(stalled.body?.reason).not.toContain("refuses");
  const exposed = (await metrics.exposition()).body;
  expect(exposed).toMatch(/^projector_stalled 1$/m);
  expect(exposed).toMatch(/^projector_batch_failures_total [3-9]\d*$/m);
  // Every later event waits behind the poison batch.
  expect(await reader.pages.get(later)).toBeNull();

  // The operator's way out (a fix deployed, the store repaired): the same batch commits on a later retry.
  refusing.on = false;
  await until(async () => (await reader.checkpoint()) >= last.position, "the batches behind it");
  expect((await reader.pages.get(later))?.title).toBe("After");
  expect((await readyz()).status).toBe(200);
  expect((await metrics.exposition()).body).toMatch(/^projector_stalled 0$/m);
  expect(projector.stall).toBeNull();
});
