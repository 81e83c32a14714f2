// The history change log in MongoDB: one document per entry, its _id the global position (so writing an entry
// again replaces it); the event is kept as JSON text and validated against the event union when read back, the
// summary as a subdocument. History pages and the feed project the event out, so they never read markdown.
// Each entity's fold (without markdown) is one document of history_fold. A page event's entry also keeps how
// many page events the page had by then (`pageEvents`), so a read as of an instant takes the page's revision
// from one entry instead of counting its history.
import { z } from "zod";
import { domainEventSchema } from "../../events.ts";
import { storedChangeSchema, type Summary } from "../../history/change-summary.ts";
import {
  countsPageEvents,
  PAGE_EVENT_TYPES,
  storedFoldSchema,
  type ChangesPage,
  type HistoryAccess,
  type HistoryChange,
  type HistoryEntry,
  type HistoryView,
  type HistoryWriter,
  type StoredFold,
} from "../../history/history.view.ts";
import type { Instant } from "../../history/instant.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

/** A history document's stored event, as JSON text. */
const storedEventDocSchema = z.object({ event: z.string() });

const accessSchema = z.object({ kind: z.enum(["page", "folder", "workspace"]), id: z.string() });
const entrySchema = z.object({
  _id: z.number().int(),
  entityKind: z.enum(["page", "folder", "thread", "group"]),
  entityId: z.string(),
  access: accessSchema,
  occurredAt: z.string(),
  occurredMs: z.number(),
  actorId: z.string(),
  tokenId: z.string().nullable().default(null),
  correlationId: z.string(),
  type: z.string(),
  sharing: z.boolean(),
  change: storedChangeSchema,
  event: z.string(),
  /** Set on a page event's entry only. */
  pageEvents: z.number().int().positive().optional(),
});
type EntryDoc = z.infer<typeof entrySchema>;
// The event, its time in ms and the page's count are left out of a change as read (zod drops keys it does not name).
const changeDocSchema = entrySchema.omit({ event: true, occurredMs: true, pageEvents: true });
const pageEventsDocSchema = z.object({ pageEvents: z.number().int().positive() });
const foldDocSchema = storedFoldSchema.extend({ _id: z.string() });
type FoldDoc = z.infer<typeof foldDocSchema>;

export const historyModel: MongoModel = {
  collections: ["history", "history_fold"],
  indexes: [
    {
      collection: "history",
      name: "history_entity",
      keys: { entityId: 1, _id: 1 },
      serves:
        "GET /pages|folders/{id}/history for those who may share; a thread's page for its entries; a page's count of events before a batch's first entry of it",
    },
    {
      collection: "history",
      name: "history_entity_shown",
      keys: { entityId: 1, sharing: 1, _id: 1 },
      serves: "GET /pages|folders/{id}/history without grants (viewers, commenters, editors)",
    },
    {
      collection: "history",
      name: "history_entity_type",
      keys: { entityId: 1, type: 1, _id: -1 },
      serves: "a page as of an instant (?at=): the latest entry of each page event type",
    },
  ],
};

const history = (ref: GenerationRef) => ref.current().collection<EntryDoc>("history");
const folds = (ref: GenerationRef) => ref.current().collection<FoldDoc>("history_fold");
const toChange = (doc: unknown): HistoryChange => {
  const { _id, tokenId, ...row } = changeDocSchema.parse(doc);
  // Absent rather than null for a session's change, as in every adapter.
  return { position: _id, ...row, ...(tokenId === null ? {} : { tokenId }) };
};
const toEntry = (doc: unknown): HistoryEntry => {
  const row = entrySchema.parse(doc);
  return {
    position: row._id,
    entityKind: row.entityKind,
    entityId: row.entityId,
    access: row.access,
    occurredAt: row.occurredAt,
    actorId: row.actorId,
    ...(row.tokenId === null ? {} : { tokenId: row.tokenId }),
    correlationId: row.correlationId,
    event: domainEventSchema.parse(JSON.parse(row.event)),
  };
};

export class MongoHistoryWriter implements HistoryWriter<MongoBatch> {
  /** Each batch's page event counts so far, per page: looked up once per page per batch. */
  private readonly pageEvents = new WeakMap<MongoBatch, Map<string, number>>();

  constructor(private readonly ref: GenerationRef) {}

  async record(tx: MongoBatch, entry: HistoryEntry, summary: Summary): Promise<void> {
    const pageEvents = await this.pageEventsWith(tx, entry);
    const doc: Omit<EntryDoc, "_id"> = {
      entityKind: entry.entityKind,
      entityId: entry.entityId,
      access: entry.access,
      occurredAt: entry.occurredAt,
      occurredMs: Date.parse(entry.occurredAt),
      actorId: entry.actorId,
      tokenId: entry.tokenId ?? null,
      correlationId: entry.correlationId,
      type: entry.event.type,
      sharing: summary.sharing,
      change: summary.change,
      event: JSON.stringify(entry.event),
      ...(pageEvents === null ? {} : { pageEvents }),
    };
    await history(this.ref).replaceOne({ _id: entry.position }, doc, { upsert: true, ...tx.options });
  }

  /**
   * How many page events the page has had once this entry is in; null for any other entry. Counted in memory
   * for the batch from the page's latest earlier entry (history_entity), which is the same whether or not a
   * batch applied again after a crash wrote its entries before: the count converges with the entries.
   */
  private async pageEventsWith(tx: MongoBatch, entry: HistoryEntry): Promise<number | null> {
    if (!countsPageEvents(entry)) return null;
    let counts = this.pageEvents.get(tx);
    if (!counts) {
      counts = new Map();
      this.pageEvents.set(tx, counts);
    }
    let before = counts.get(entry.entityId);
    if (before === undefined) {
      const previous = await history(this.ref).findOne(
        { entityId: entry.entityId, _id: { $lt: entry.position }, pageEvents: { $exists: true } },
        { sort: { _id: -1 }, projection: { pageEvents: 1 }, ...tx.options },
      );
      before = previous ? pageEventsDocSchema.parse(previous).pageEvents : 0;
    }
    counts.set(entry.entityId, before + 1);
    return before + 1;
  }

  async accessOf(tx: MongoBatch, entityId: string): Promise<HistoryAccess | null> {
    const doc = await history(this.ref).findOne(
      { entityId },
      { sort: { _id: 1 }, projection: { access: 1 }, ...tx.options },
    );
    return doc ? accessSchema.parse(doc.access) : null;
  }

  async foldOf(tx: MongoBatch, entityId: string): Promise<StoredFold | null> {
    const doc = await folds(this.ref).findOne({ _id: entityId }, tx.options);
    if (!doc) return null;
    const { _id, ...fold } = foldDocSchema.parse(doc);
    return fold;
  }

  async putFolds(tx: MongoBatch, changed: ReadonlyMap<string, StoredFold>): Promise<void> {
    if (changed.size === 0) return;
    const operations = [...changed].map(([entityId, fold]) => ({
      replaceOne: { filter: { _id: entityId }, replacement: fold, upsert: true },
    }));
    await folds(this.ref).bulkWrite(operations, { ordered: false, ...tx.options });
  }

  async forget(tx: MongoBatch, entityIds: readonly string[]): Promise<void> {
    if (entityIds.length === 0) return;
    await history(this.ref).deleteMany({ entityId: { $in: [...entityIds] } }, tx.options);
    await folds(this.ref).deleteMany({ _id: { $in: [...entityIds] } }, tx.options);
  }

  async markdownAt(tx: MongoBatch, position: number): Promise<string | null> {
    const doc = await history(this.ref).findOne({ _id: position }, { projection: { event: 1 }, ...tx.options });
    if (!doc) return null;
    const event = domainEventSchema.parse(JSON.parse(storedEventDocSchema.parse(doc).event));
    return event.type === "PageCreated" || event.type === "PageContentReplaced" || event.type === "PageRestored"
      ? event.data.markdown
      : null;
  }
}

export class MongoHistoryView implements HistoryView {
  constructor(private readonly ref: GenerationRef) {}

  async pageStateAt(pageId: string, instant: Instant): Promise<{ entries: HistoryEntry[]; count: number }> {
    const bounds = {
      entityId: pageId,
      _id: {
        $lte:
          instant.kind === "position" ? Math.min(instant.position, Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER,
      },
      occurredMs: { $lte: instant.kind === "time" ? instant.ms : Number.MAX_SAFE_INTEGER },
    };
    const collection = history(this.ref);
    const latest = await Promise.all(
      PAGE_EVENT_TYPES.map((type) => collection.findOne({ ...bounds, type }, { sort: { _id: -1 } })),
    );
    const docs = latest.flatMap((doc) => (doc ? [doc] : [])).sort((a, b) => a._id - b._id);
    // The latest page entry up to the instant counts the page's events up to it.
    const newest = docs[docs.length - 1];
    return { entries: docs.map(toEntry), count: newest ? pageEventsDocSchema.parse(newest).pageEvents : 0 };
  }

  async changesOf(entityId: string, page: ChangesPage): Promise<HistoryChange[]> {
    const direction = page.order === "asc" ? 1 : -1;
    const position = page.from === null ? {} : { _id: page.order === "asc" ? { $gt: page.from } : { $lt: page.from } };
    const filter = { entityId, ...(page.withSharing ? {} : { sharing: false }), ...position };
    const docs = await history(this.ref)
      .find(filter, { projection: { event: 0 } })
      .sort({ _id: direction })
      .limit(page.limit)
      .toArray();
    return docs.map(toChange);
  }

  async firstEntryOf(entityId: string): Promise<HistoryEntry | null> {
    const doc = await history(this.ref).findOne({ entityId }, { sort: { _id: 1 } });
    return doc ? toEntry(doc) : null;
  }

  async changesAfter(afterPosition: number, limit: number): Promise<HistoryChange[]> {
    const docs = await history(this.ref)
      .find({ _id: { $gt: afterPosition } }, { projection: { event: 0 } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toChange);
  }
}
