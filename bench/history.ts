// History figures: a page with many revisions read as of an instant (its history folded per request), and the
// change feed's delivery latency under a steady write rate to many open feeds (projector, change log and
// feed hub in one process, as in the all-in-one arrangement; the feeds are the hub's, without HTTP framing).
import { randomUUID } from "node:crypto";
import { toNewEvents } from "../shared/commands/new-events.ts";
import type { EventStore } from "../shared/event-store/event-store.port.ts";
import type { DomainEvent } from "../shared/events.ts";
import { ChangeFeedHub, type Feed } from "../shared/history/change-feed.ts";
import { pageIdSchema, userIdSchema, type PageId, type UserId } from "../shared/kernel/ids.ts";
import { startLiveProjection } from "./live-projection.ts";
import { untilDue } from "./pace.ts";

const context = (actorId: UserId) => ({ actorId, correlationId: randomUUID(), now: new Date() });

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const paragraph = (revision: number): string =>
  Array.from({ length: 40 }, (_, line) =>
    line === revision % 40
      ? `Line ${line}, edited in revision ${revision}.`
      : `Line ${line} of a page that is edited often.`,
  ).join("\n");

/** A page of `revisions` events (created, then edits and renames), appended 100 at a time; the position halfway. */
export async function seedRevisedPage(
  store: EventStore,
  ownerId: UserId,
  revisions: number,
): Promise<{ pageId: PageId; midPosition: number }> {
  const pageId = pageIdSchema.parse(randomUUID());
  const events: DomainEvent[] = [
    {
      type: "PageCreated",
      data: { pageId, ownerId, parentId: null, title: "Often edited", icon: null, markdown: paragraph(0) },
    },
  ];
  for (let revision = 1; revision < revisions; revision += 1) {
    events.push(
      revision % 10 === 0
        ? { type: "PageRenamed", data: { pageId, title: `Often edited (${revision})`, previousTitle: null } }
        : { type: "PageContentReplaced", data: { pageId, markdown: paragraph(revision) } },
    );
  }
  let midPosition = 0;
  for (let start = 0; start < events.length; start += 100) {
    const { position } = await store.append(
      `page-${pageId}`,
      toNewEvents(events.slice(start, start + 100), context(ownerId)),
      start === 0 ? "no_stream" : start - 1,
    );
    if (start + 100 <= revisions / 2) midPosition = position;
  }
  return { pageId, midPosition };
}

/** Appends page changes at `writesPerSecond` for `seconds`; each delivery to each of `feeds` feeds is timed from its append. */
export async function benchChangeFeed(
  dir: string,
  writesPerSecond: number,
  seconds: number,
  feeds: number,
): Promise<{ p50Ms: number; p99Ms: number; deliveries: number; expected: number }> {
  const { eventStore, readStore, watcher, stop } = await startLiveProjection(dir, "feed");
  const ownerId = userIdSchema.parse(randomUUID());
  const hub = new ChangeFeedHub(readStore, watcher, { maxPerUser: feeds, clock: () => new Date() });
  const appendedAt = new Map<number, number>();
  const latencies: number[] = [];
  const open: Feed[] = [];
  for (let i = 0; i < feeds; i += 1) {
    const feed: Feed = {
      userId: ownerId,
      credential: { tokenId: null, expiresAt: null },
      cursor: await watcher.current(),
      deliver: (entries) => {
        const now = performance.now();
        for (const { entry } of entries) latencies.push(now - (appendedAt.get(entry.position) ?? now));
      },
      end: () => undefined,
    };
    hub.admit(feed);
    await hub.start(feed);
    open.push(feed);
  }
  const pages = Array.from({ length: 50 }, () => pageIdSchema.parse(randomUUID()));
  const revisions = new Map<PageId, number>();
  for (const pageId of pages) {
    const created: DomainEvent[] = [
      {
        type: "PageCreated",
        data: { pageId, ownerId, parentId: null, title: "Feed", icon: null, markdown: paragraph(0) },
      },
    ];
    await eventStore.append(`page-${pageId}`, toNewEvents(created, context(ownerId)), "no_stream");
    revisions.set(pageId, 0);
  }
  // The creations reach every feed first; only the edits after them are timed.
  const settled = Date.now() + 30_000;
  while (latencies.length < pages.length * feeds && Date.now() < settled)
    await new Promise((resolve) => setTimeout(resolve, 20));
  latencies.length = 0;
  const total = writesPerSecond * seconds;
  const started = performance.now();
  for (let i = 0; i < total; i += 1) {
    await untilDue(started, i, writesPerSecond);
    const pageId = pages[i % pages.length] ?? pages[0];
    if (!pageId) break;
    const revision = revisions.get(pageId) ?? 0;
    const events: DomainEvent[] = [
      { type: "PageContentReplaced", data: { pageId, markdown: paragraph(revision + 1) } },
    ];
    const { position } = await eventStore.append(`page-${pageId}`, toNewEvents(events, context(ownerId)), revision);
    appendedAt.set(position, performance.now());
    revisions.set(pageId, revision + 1);
  }
  const expected = total * feeds;
  const deadline = Date.now() + 30_000;
  while (latencies.length < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const feed of open) hub.close(feed);
  await hub.stop();
  await stop();
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), deliveries: latencies.length, expected };
}
