// Parked events (shared/read-store/parked-events.port.ts) as a collection of the read models' generation
// (`rm<n>_parked_events`), written with the batch's session so they commit with the batch and its checkpoint.
// An operator's retry or skip runs as a batch too: the batch fence (the active meta document every batch
// updates) makes it and the projector's batches conflict rather than interleave.
import { z } from "zod";
import {
  PROJECTION_NAMES,
  parkedKey,
  type ParkedEvent,
  type ParkedEventsStore,
  type ProjectionName,
} from "../../read-store/parked-events.port.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

const parkedSchema = z.object({
  _id: z.string(),
  eventId: z.string(),
  position: z.number().int(),
  stream: z.string(),
  type: z.string(),
  projection: z.enum(PROJECTION_NAMES),
  cause: z.enum(["failed", "behind"]),
  error: z.string(),
  parkedAt: z.string(),
  attempts: z.number().int(),
});
type ParkedDoc = z.infer<typeof parkedSchema>;

/**
 * No secondary index yet: the collection holds the few events a defect parked, and each batch's lookup by
 * stream scans them. Indexes on {stream, projection} and {position, projection} belong here once
 * docs/operations/mongodb.md lists them (test/adapters/mongodb/indexes-documented.test.ts).
 */
export const parkedEventsModel: MongoModel = { collections: ["parked_events"], indexes: [] };

const idOf = (projection: ProjectionName, eventId: string): string => `${projection}:${eventId}`;

const toRecord = (doc: unknown): ParkedEvent => {
  const { _id: _, ...record } = parkedSchema.parse(doc);
  return record;
};

export class MongoParkedEvents implements ParkedEventsStore<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  private get collection() {
    return this.ref.current().collection<ParkedDoc>("parked_events");
  }

  async park(tx: MongoBatch, record: ParkedEvent): Promise<void> {
    const { attempts, cause, error, ...rest } = record;
    await this.collection.updateOne(
      { _id: idOf(record.projection, record.eventId) },
      { $setOnInsert: rest, $set: { cause, error }, $inc: { attempts } },
      { upsert: true, ...tx.options },
    );
  }

  async blocked(tx: MongoBatch, streams: readonly string[]): Promise<Set<string>> {
    const keys = new Set<string>();
    if (streams.length === 0) return keys;
    const docs = await this.collection
      .find({ stream: { $in: [...streams] } }, { projection: { projection: 1, stream: 1 }, ...tx.options })
      .toArray();
    for (const doc of docs) keys.add(parkedKey(doc.projection, doc.stream));
    return keys;
  }

  async list(tx: MongoBatch | null, options: { after: number; limit: number }): Promise<ParkedEvent[]> {
    const docs = await this.collection
      .find({ position: { $gt: options.after } }, tx?.options ?? {})
      .sort({ position: 1, projection: 1 })
      .limit(options.limit)
      .toArray();
    return docs.map(toRecord);
  }

  async failedAgain(tx: MongoBatch, projection: ProjectionName, eventId: string, error: string): Promise<void> {
    await this.collection.updateOne(
      { _id: idOf(projection, eventId) },
      { $set: { error, cause: "failed" }, $inc: { attempts: 1 } },
      tx.options,
    );
  }

  async remove(tx: MongoBatch, projection: ProjectionName, eventId: string): Promise<boolean> {
    return (await this.collection.deleteOne({ _id: idOf(projection, eventId) }, tx.options)).deletedCount > 0;
  }

  async count(): Promise<number> {
    return this.collection.countDocuments({});
  }
}
