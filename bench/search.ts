// What keeping the full-text index costs the projector: the same page writes (a creation with 2–4 KB of prose,
// then two edits of the content and a rename) projected into an empty read store with the index and without it.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { pino } from "pino";
import { rebuildReadModels } from "../services/projector/rebuild.ts";
import { SqliteEventStore } from "../shared/adapters/sqlite/sqlite.event-store.ts";
import { SqliteProjectionStore } from "../shared/adapters/sqlite/sqlite.read-store.ts";
import { toNewEvents } from "../shared/commands/new-events.ts";
import type { DomainEvent } from "../shared/events.ts";
import { pageIdSchema, userIdSchema } from "../shared/kernel/ids.ts";

const WORDS =
  "plan storage migration onboarding hiring decision owner risk goal quarter review release budget team page link note".split(
    " ",
  );

function prose(words: number, seed: number): string {
  return Array.from({ length: words }, (_, i) => WORDS[(seed * 7 + i * 13) % WORDS.length]).join(" ");
}

export interface IndexCost {
  readonly events: number;
  readonly withIndexPerSecond: number;
  readonly withoutIndexPerSecond: number;
}

export async function benchSearchIndexCost(dir: string, pages: number): Promise<IndexCost> {
  const eventStore = new SqliteEventStore(join(dir, "search-cost-events.sqlite"));
  const ownerId = userIdSchema.parse(randomUUID());
  for (let i = 0; i < pages; i += 1) {
    const pageId = pageIdSchema.parse(randomUUID());
    const events: DomainEvent[] = [
      {
        type: "PageCreated",
        data: { pageId, ownerId, parentId: null, title: `Page ${i}`, icon: null, markdown: prose(400, i) },
      },
      { type: "PageContentReplaced", data: { pageId, markdown: prose(450, i + 1) } },
      { type: "PageRenamed", data: { pageId, title: `Page ${i} (reviewed)`, previousTitle: `Page ${i}` } },
      { type: "PageContentReplaced", data: { pageId, markdown: prose(500, i + 2) } },
    ];
    await eventStore.append(
      `page-${pageId}`,
      toNewEvents(events, { actorId: ownerId, correlationId: randomUUID(), now: new Date() }),
      "no_stream",
    );
  }
  const logger = pino({ level: "silent" });
  const rate = async (searchIndex: boolean): Promise<{ applied: number; perSecond: number }> => {
    // Batches of 4 events, one page each: the projector's batch size under a steady trickle of writes.
    const store = new SqliteProjectionStore(join(dir, `search-cost-read-${searchIndex}.sqlite`), { searchIndex });
    const { applied, seconds } = await rebuildReadModels({ eventStore, store, logger, batchSize: 4 });
    await store.close();
    return { applied, perSecond: applied / seconds };
  };
  const without = await rate(false);
  const withIndex = await rate(true);
  await eventStore.close();
  return {
    events: withIndex.applied,
    withIndexPerSecond: withIndex.perSecond,
    withoutIndexPerSecond: without.perSecond,
  };
}
