// Search over a large workspace does not hold the event loop: while one token spends its whole
// search budget on the costliest query the limits allow (2 prefix terms, 3 phrases of 8 words, 16 terms in all,
// every one in every page) over 10,000 pages, /healthz keeps answering. On the event loop each such search held
// it for its whole length (hundreds of ms each, back to back from four clients); ranked in the worker pool, the
// loop only reads the page of hits. Bounds are relative to the searches' own time, so a loaded machine slows both.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SqliteEventStore } from "../../../shared/adapters/sqlite/sqlite.event-store.ts";
import { toNewEvents } from "../../../shared/commands/new-events.ts";
import { pageIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import { attack } from "../../support/noisy-neighbour.ts";
import { Client, TestServer, type TestUser } from "../../support/server.ts";

const PAGES = 10_000;
/** The token's search budget: spent in full by the attack, so the test is bounded in count. */
const BUDGET = 12;
const PROSE =
  "The quarterly plan covers hiring the storage migration and the new onboarding flow. Each team lists its goals owners and risks, " +
  "and links the pages where the details live. Decisions are recorded with their date and the people who made them. ";
/** The worst query within the limits over that workspace: every term in every page, prefixes of common words. */
const WORST_QUERY =
  'th* an* "the quarterly plan covers hiring the storage migration" "each team lists its goals owners and risks" ' +
  '"decisions are recorded with their date and the" the and its with their people who made them links pages';

let server: TestServer;
let owner: TestUser;
beforeAll(async () => {
  server = await TestServer.start({ settings: { RATE_LIMIT_SEARCH: `${BUDGET}/1h`, WORKER_THREADS: "1" } });
  owner = await server.registered("owner");
  const ownerId = userIdSchema.parse(owner.id);
  const last = `lastpage${randomUUID().replace(/[^a-f]/g, "")}`;
  // Straight into the event log while the server is stopped (appends grouped into few commits); the projector
  // indexes the pages when it starts again.
  await server.restart(async () => {
    const store = new SqliteEventStore(join(server.dataDir, "events.sqlite"), { groupCommit: true });
    const metadata = { actorId: ownerId, correlationId: randomUUID(), now: new Date() };
    for (let from = 0; from < PAGES; from += 1_000) {
      await Promise.all(
        Array.from({ length: Math.min(1_000, PAGES - from) }, (_, offset) => {
          const index = from + offset;
          const pageId = pageIdSchema.parse(randomUUID());
          const title = `Quarterly plan ${index}${index === PAGES - 1 ? ` ${last}` : ""}`;
          return store.append(
            `page-${pageId}`,
            toNewEvents(
              [
                {
                  type: "PageCreated",
                  data: { pageId, ownerId, parentId: null, title, icon: null, markdown: PROSE.repeat(3) },
                },
              ],
              metadata,
            ),
            "no_stream",
          );
        }),
      );
    }
    await store.close();
  });
  // Indexed once the read models reach the log's head (searching to find out would spend the budget).
  const head = await server.internals.eventStore.headPosition();
  for (const deadline = Date.now() + 300_000; (await server.internals.readStore.checkpoint()) < head;) {
    if (Date.now() > deadline) throw new Error("the seeded pages were not indexed in time");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const found = await owner.get(`/search?q=${last}&in=title`);
  expect(found.body.data).toHaveLength(1);
}, 360_000);
afterAll(async () => {
  await server.stop();
});

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

it("a token spending its search budget on the costliest allowed query over 10,000 pages leaves /healthz answering", async () => {
  const created = await owner.post("/tokens", { name: "searcher", scopes: ["pages:read"] });
  const token = new Client(server.url, { bearer: String(created.body.token) });
  // More prefixes than the limits allow is refused from the query alone, before anything runs.
  expect((await token.get(`/search?q=${encodeURIComponent("th* an* pl* co* st* mi*")}`)).body.error?.code).toBe(
    "validation_failed",
  );

  const searchTimes: number[] = [];
  const searches = attack(4, BUDGET, async () => {
    const started = performance.now();
    const reply = await token.get(`/search?q=${encodeURIComponent(WORST_QUERY)}&limit=50`);
    if (reply.status === 200) searchTimes.push(performance.now() - started);
    return reply.status;
  });
  let done = false;
  const spent = searches.statuses.finally(() => (done = true));
  const probes: number[] = [];
  while (!done) {
    const started = performance.now();
    expect((await server.anonymous().get("/healthz")).status).toBe(200);
    probes.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const statuses = await spent;
  // The budget (less the refused query's one) was spent on the query itself, each search answered.
  expect(statuses.filter((status) => status === 200)).toHaveLength(BUDGET - 1);
  expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
  const searchMs = median(searchTimes);
  const slowestProbe = Math.max(...probes);
  // A search on the event loop made /healthz wait at least one whole search (usually several queued).
  expect(
    slowestProbe,
    `slowest /healthz ${Math.round(slowestProbe)} ms; a search ${Math.round(searchMs)} ms; ${probes.length} probes`,
  ).toBeLessThan(Math.max(250, searchMs / 2));
}, 180_000);
