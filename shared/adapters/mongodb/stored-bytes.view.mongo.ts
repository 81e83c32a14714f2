// The stored-bytes read model in MongoDB: one document per workspace owner, the running total and the position
// of the last event that changed it. Without a transaction (a standalone server) a batch applied again after a
// crash finds the position already there and adds nothing twice.
import { z } from "zod";
import type { StoredBytesView, StoredBytesWriter } from "../../quotas/stored-bytes.view.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

const storedBytesSchema = z.object({ _id: z.string(), bytes: z.number(), position: z.number() });
type StoredBytesDoc = z.infer<typeof storedBytesSchema>;

export const storedBytesModel: MongoModel = { collections: ["stored_bytes"], indexes: [] };

const totals = (ref: GenerationRef) => ref.current().collection<StoredBytesDoc>("stored_bytes");

/** Below every position an event store hands out (EventStoreDB's first commit position is 0). */
const NO_POSITION = -1;

export class MongoStoredBytesWriter implements StoredBytesWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async add(tx: MongoBatch, ownerId: string, bytes: number, position: number): Promise<void> {
    // Two steps, neither of which can fail on a total already there: a duplicate-key error would abort the batch's
    // transaction, as a single conditional upsert meeting a later position would raise.
    await totals(this.ref).updateOne(
      { _id: ownerId },
      { $setOnInsert: { bytes: 0, position: NO_POSITION } },
      { upsert: true, ...tx.options },
    );
    await totals(this.ref).updateOne(
      { _id: ownerId, position: { $lt: position } },
      { $inc: { bytes }, $set: { position } },
      tx.options,
    );
  }
}

export class MongoStoredBytesView implements StoredBytesView {
  constructor(private readonly ref: GenerationRef) {}

  async ofOwner(ownerId: string): Promise<number> {
    const doc = await totals(this.ref).findOne({ _id: ownerId });
    return doc ? storedBytesSchema.parse(doc).bytes : 0;
  }
}
