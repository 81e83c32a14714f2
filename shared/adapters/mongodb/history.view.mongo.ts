// The history change log in MongoDB: one document per entry, its _id the global position (so writing an entry
// again replaces it); the event is kept as JSON text and validated against the event union when read back.
import { z } from "zod";
import { domainEventSchema } from "../../events.ts";
import { pageEventSchemas } from "../../pages/page.decider.ts";
import type { HistoryAccess, HistoryEntry, HistoryView, HistoryWriter } from "../../history/history.view.ts";
import type { Instant } from "../../history/instant.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

const accessSchema = z.object({ kind: z.enum(["page", "folder"]), id: z.string() });
const entrySchema = z.object({
  _id: z.number().int(),
  entityKind: z.enum(["page", "folder", "thread"]),
  entityId: z.string(),
  access: accessSchema,
  occurredAt: z.string(),
  occurredMs: z.number(),
  actorId: z.string(),
  correlationId: z.string(),
  type: z.string(),
  event: z.string(),
});
type EntryDoc = z.infer<typeof entrySchema>;

export const historyModel: MongoModel = {
  collections: ["history"],
  indexes: [
    { collection: "history", name: "history_entity", keys: { entityId: 1, _id: 1 }, serves: "GET /pages|folders/{id}/history; a thread's page for its entries" },
    { collection: "history", name: "history_entity_type", keys: { entityId: 1, type: 1, _id: -1 }, serves: "a page as of an instant (?at=): the latest entry of each page event type" },
  ],
};

const PAGE_EVENT_TYPES = pageEventSchemas.map((schema) => schema.shape.type.value);

const history = (ref: GenerationRef) => ref.current().collection<EntryDoc>("history");
const toEntry = (doc: unknown): HistoryEntry => {
  const row = entrySchema.parse(doc);
  return {
    position: row._id,
    entityKind: row.entityKind,
    entityId: row.entityId,
    access: row.access,
    occurredAt: row.occurredAt,
    actorId: row.actorId,
    correlationId: row.correlationId,
    event: domainEventSchema.parse(JSON.parse(row.event)),
  };
};

export class MongoHistoryWriter implements HistoryWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async record(tx: MongoBatch, entry: HistoryEntry): Promise<void> {
    const doc: Omit<EntryDoc, "_id"> = {
      entityKind: entry.entityKind,
      entityId: entry.entityId,
      access: entry.access,
      occurredAt: entry.occurredAt,
      occurredMs: Date.parse(entry.occurredAt),
      actorId: entry.actorId,
      correlationId: entry.correlationId,
      type: entry.event.type,
      event: JSON.stringify(entry.event),
    };
    await history(this.ref).replaceOne({ _id: entry.position }, doc, { upsert: true, ...tx.options });
  }

  async accessOf(tx: MongoBatch, entityId: string): Promise<HistoryAccess | null> {
    const doc = await history(this.ref).findOne({ entityId }, { sort: { _id: 1 }, projection: { access: 1 }, ...tx.options });
    return doc ? accessSchema.parse(doc.access) : null;
  }
}

export class MongoHistoryView implements HistoryView {
  constructor(private readonly ref: GenerationRef) {}

  async pageStateAt(pageId: string, instant: Instant): Promise<{ entries: HistoryEntry[]; count: number }> {
    const bounds = {
      entityId: pageId,
      _id: { $lte: instant.kind === "position" ? Math.min(instant.position, Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER },
      occurredMs: { $lte: instant.kind === "time" ? instant.ms : Number.MAX_SAFE_INTEGER },
    };
    const collection = history(this.ref);
    const latest = await Promise.all(PAGE_EVENT_TYPES.map((type) => collection.findOne({ ...bounds, type }, { sort: { _id: -1 } })));
    const entries = latest.flatMap((doc) => (doc ? [toEntry(doc)] : [])).sort((a, b) => a.position - b.position);
    const count = await collection.countDocuments({ ...bounds, type: { $in: PAGE_EVENT_TYPES } });
    return { entries, count };
  }

  async entriesOf(entityId: string, untilPosition = Number.MAX_SAFE_INTEGER): Promise<HistoryEntry[]> {
    return (await history(this.ref).find({ entityId, _id: { $lte: untilPosition } }).sort({ _id: 1 }).toArray()).map(toEntry);
  }

  async entriesAfter(afterPosition: number, limit: number): Promise<HistoryEntry[]> {
    return (await history(this.ref).find({ _id: { $gt: afterPosition } }).sort({ _id: 1 }).limit(limit).toArray()).map(toEntry);
  }
}
