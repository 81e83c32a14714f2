// An event one projection cannot apply (here the pages read model throws on one marked page) is parked for
// that projection, with its error; every other projection applies it and the projector goes on past it. Later
// events of the same stream park behind it for that projection. /readyz says degraded (200) and the metric
// counts them; an operator's retry applies them once the projection can, and a skip leaves one out for good and
// applies what waited behind it. Real SQLite stores; MongoDB runs the same store through the contract suite.
import { randomUUID } from "node:crypto";
import { pino } from "pino";
import { afterEach, beforeEach, expect, it } from "vitest";
import { retryParked, skipParked } from "../../services/projector/parked-events.ts";
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
const silent = pino({ level: "silent" });

beforeEach(async () => {
  stores = await projectorStores();
  ({ eventStore, projection, reader } = stores);
});
afterEach(async () => {
  await app?.close();
  await projector?.stop();
  projector = null;
  await stores.close();
});

/** The SQLite projection store, whose pages read model throws (a defect, not a store fault) on the `failing` pages. */
const failingStore = (failing: Set<string>): ProjectionStore<SqliteBatch> =>
  withPagePutFailing(projection, (pageId) =>
    failing.has(pageId) ? new TypeError(`cannot read properties of the marked page ${pageId}`) : null,
  );

const owner = userIdSchema.parse(randomUUID());
const context = () => ({ actorId: owner, correlationId: randomUUID(), now: new Date() });
const createPage = (pageId: PageId, title: string) =>
  eventStore.append(
    `page-${pageId}`,
    toNewEvents(
      [{ type: "PageCreated", data: { pageId, ownerId: owner, parentId: null, title, icon: null, markdown: "" } }],
      context(),
    ),
    "no_stream",
  );
const renamePage = (pageId: PageId, title: string, previousTitle: string) =>
  eventStore.append(
    `page-${pageId}`,
    toNewEvents([{ type: "PageRenamed", data: { pageId, title, previousTitle } }], context()),
    0,
  );

it("parks the event for the failing projection only, parks its stream's later events behind it, goes on, says degraded, and applies them on retry", async () => {
  const failing = new Set<string>();
  const store = failingStore(failing);
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  projector = new Projector({
    eventStore,
    store,
    logger: silent,
    metrics,
    batchSize: 50,
    retryDelayMs: 5,
    maxRetryDelayMs: 20,
  });
  app = createApp({ logger: silent, bodyLimit: 1024 * 1024 });
  healthRoutes(app, { eventStore, readStore: reader, projector });
  const readyz = async () => {
    const answer = await app?.inject({ method: "GET", url: "/readyz" });
    return { status: answer?.statusCode, body: answer?.json<{ status: string; parked?: number; reason?: string }>() };
  };

  const before = pageIdSchema.parse(randomUUID());
  const marked = pageIdSchema.parse(randomUUID());
  const after = pageIdSchema.parse(randomUUID());
  failing.add(marked);
  await createPage(before, "Before");
  const created = await createPage(marked, "Marked");
  await renamePage(marked, "Marked, renamed", "Marked");
  const last = await createPage(after, "After");
  await projector.start();
  await until(async () => (await reader.checkpoint()) >= last.position, "the projector past the marked page");

  expect((await reader.pages.get(before))?.title).toBe("Before");
  expect((await reader.pages.get(after))?.title).toBe("After");
  expect(await reader.pages.get(marked)).toBeNull();
  const parked = await projection.parked.list(null, { after: 0, limit: 10 });
  expect(parked.map((record) => [record.projection, record.type, record.cause])).toEqual([
    ["pages", "PageCreated", "failed"],
    ["pages", "PageRenamed", "behind"],
  ]);
  expect(parked[0]?.position).toBe(created.position);
  expect(parked[0]?.error).toContain("TypeError: cannot read properties of the marked page");
  // Every other projection applied it: the history read model holds the page's creation.
  expect(parked.some((record) => record.projection === "history")).toBe(false);
  expect(projector.stall).toBeNull();
  const degraded = await readyz();
  expect(degraded.status).toBe(200);
  expect(degraded.body?.status).toBe("degraded");
  expect(degraded.body?.parked).toBe(2);
  expect((await metrics.exposition()).body).toMatch(/^projector_parked_events_total 2$/m);

  // Retried while the projection still fails: it stays parked, and so does what waits behind it.
  const again = await retryParked({ eventStore, store, logger: silent });
  expect(again.applied).toEqual([]);
  expect(again.stillParked).toHaveLength(2);
  expect((await projection.parked.list(null, { after: 0, limit: 10 }))[0]?.attempts).toBe(2);

  // Fixed: a retry applies both, in order.
  failing.clear();
  const retried = await retryParked({ eventStore, store, logger: silent });
  expect(retried.applied.map((record) => record.type)).toEqual(["PageCreated", "PageRenamed"]);
  expect((await reader.pages.get(marked))?.title).toBe("Marked, renamed");
  expect(await projection.parked.count()).toBe(0);
  expect((await readyz()).body?.status).toBe("ready");
});

it("skips a parked event only on the operator's word, then applies what waited behind it", async () => {
  const failing = new Set<string>();
  const store = failingStore(failing);
  projector = new Projector({ eventStore, store, logger: silent, retryDelayMs: 5, maxRetryDelayMs: 20 });
  const marked = pageIdSchema.parse(randomUUID());
  failing.add(marked);
  await projector.start();
  await createPage(marked, "Marked");
  const renamed = await renamePage(marked, "Renamed", "Marked");
  const other = await createPage(pageIdSchema.parse(randomUUID()), "Other");
  await until(async () => (await reader.checkpoint()) >= other.position, "the projector past the marked page");
  const [failed] = await projection.parked.list(null, { after: 0, limit: 10 });
  expect(failed?.cause).toBe("failed");

  const outcome = await skipParked({
    eventStore,
    store,
    logger: silent,
    eventId: failed?.eventId ?? "",
    projection: null,
  });
  expect(outcome.skipped.map((record) => record.type)).toEqual(["PageCreated"]);
  // The rename waited behind it, and is applied now (the pages read model has no such page: a no-op or a new failure).
  expect(outcome.applied.length + outcome.stillParked.length).toBe(1);
  const left = await projection.parked.list(null, { after: 0, limit: 10 });
  expect(left.every((record) => record.position === renamed.position && record.cause === "failed")).toBe(true);
  expect(
    (await skipParked({ eventStore, store, logger: silent, eventId: randomUUID(), projection: null })).skipped,
  ).toEqual([]);
});
