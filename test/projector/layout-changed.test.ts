// A projector of an older release that meets read models a newer release laid out (its replay switched them
// over while the old projector still ran) must not write its own layout into them: it stops, and says so
// through /readyz and the projector_stalled metric, instead of projecting on or retrying. Real SQLite stores; the
// newer layout is the read-model file's user_version one higher, as a newer release leaves it.
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { pino } from "pino";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Projector } from "../../services/projector/projector.ts";
import { PrometheusMetrics } from "../../shared/adapters/prometheus/prometheus.metrics.ts";
import type { SqliteBatch } from "../../shared/adapters/sqlite/sqlite-batch.ts";
import { toNewEvents } from "../../shared/commands/new-events.ts";
import { pageIdSchema, userIdSchema, type PageId } from "../../shared/kernel/ids.ts";
import { projectorStores, type ProjectorStores } from "../support/projector-stores.ts";
import { until } from "../support/poll.ts";

let stores: ProjectorStores;
let projector: Projector<SqliteBatch> | null = null;

beforeEach(async () => {
  stores = await projectorStores();
});
afterEach(async () => {
  await projector?.stop();
  await stores.close();
});

const owner = userIdSchema.parse(randomUUID());
async function createPage(title: string): Promise<{ pageId: PageId; position: number }> {
  const pageId = pageIdSchema.parse(randomUUID());
  const context = { actorId: owner, correlationId: randomUUID(), now: new Date() };
  const data = { pageId, ownerId: owner, parentId: null, title, icon: null, markdown: "" };
  const { position } = await stores.eventStore.append(
    `page-${pageId}`,
    toNewEvents([{ type: "PageCreated", data }], context),
    "no_stream",
  );
  return { pageId, position };
}

it("stops and alerts when the read models turn out laid out by a newer release, writing nothing more", async () => {
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  projector = new Projector({
    eventStore: stores.eventStore,
    store: stores.projection,
    logger: pino({ level: "silent" }),
    metrics,
    retryDelayMs: 5,
    maxRetryDelayMs: 20,
    stallAfter: 1_000,
  });
  await projector.start();
  const first = await createPage("Before the upgrade");
  await until(async () => (await stores.reader.checkpoint()) >= first.position, "the first page");

  const db = new Database(stores.readModelsFile);
  db.pragma(`user_version = ${Number(db.pragma("user_version", { simple: true })) + 1}`);
  db.close();

  const later = await createPage("After the upgrade");
  await until(async () => projector?.stall !== null, "the projector to stop");
  expect(projector.stall?.position).toBe(first.position);
  expect((await metrics.exposition()).body).toMatch(/^projector_stalled 1$/m);
  // Stopped, not retrying: a while later nothing more was tried or written.
  const failures = (await metrics.exposition()).body.match(/^projector_batch_failures_total (\d+)$/m)?.[1];
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect((await metrics.exposition()).body.match(/^projector_batch_failures_total (\d+)$/m)?.[1]).toBe(failures);
  expect(await stores.reader.checkpoint()).toBe(first.position);
  expect(await stores.reader.pages.get(later.pageId)).toBeNull();
});
